import styled from 'styled-components';
import { MAX_STAGE_DUE_DAYS, STAGE_DUE_FROM, STAGE_DUE_FROM_LABELS, type ProgramCourse } from '@portal/contracts';
import { Button, Check, CheckLabel, CodeSelect, ErrorBox, Field, FieldError, Input } from '@portal/ui';
import { useSortableRow } from './ProgramDnd';
import { StageCourses } from './StageCourses';
import type { DraftAction, DraftStage } from './stagesModel';

interface StageCardProps {
  stage: DraftStage;
  /** 0-based place in the program. */
  index: number;
  readOnly: boolean;
  /** Whether it can be removed (a program keeps at least one stage). */
  removable: boolean;
  available: ProgramCourse[];
  coursesLoading: boolean;
  /** This stage's problems by field (`title`, `required`, `dueDays`...), and `''` for the stage as a whole. */
  errors: Record<string, string>;
  dispatch: (action: DraftAction) => void;
}

/** One stage of the program editor: its title, courses, rule, deadline and lock; dragged by its handle. */
export function StageCard({ stage, index, readOnly, removable, available, coursesLoading, errors, dispatch }: StageCardProps) {
  const { row, handle } = useSortableRow(stage.key, stage.title, readOnly);
  const first = index === 0;
  const name = stage.title.trim() || `Этап ${index + 1}`;
  const update = (patch: Partial<Omit<DraftStage, 'key' | 'courses'>>) =>
    dispatch({ type: 'updateStage', key: stage.key, patch });

  const { $dragging, ...slot } = row;
  // The list's item is the sortable slot, the card inside it the named group: an <ol> holds list items only.
  return (
    <Slot {...slot} $dragging={$dragging}>
      <Card $dragging={$dragging} role="group" aria-label={`Этап ${index + 1}: ${name}`}>
        <Head>
          {handle(`Переместить этап «${name}»`)}
          <StageNumber aria-hidden="true">{index + 1}</StageNumber>
          <TitleField>
            <Field label="Название этапа" error={errors.title}>
              <Input
                value={stage.title}
                maxLength={200}
                readOnly={readOnly}
                onChange={(e) => update({ title: e.target.value })}
              />
            </Field>
          </TitleField>
          {!readOnly && removable && (
            <Button
              type="button"
              $variant="ghost"
              $size="sm"
              aria-label={`Удалить этап «${name}»`}
              onClick={() => dispatch({ type: 'removeStage', key: stage.key })}
            >
              ✕
            </Button>
          )}
        </Head>
        {errors[''] && <ErrorBox>{errors['']}</ErrorBox>}

        <StageCourses
          stage={stage}
          readOnly={readOnly}
          available={available}
          coursesLoading={coursesLoading}
          dispatch={dispatch}
        />
        {errors.courseIds && <FieldError>{errors.courseIds}</FieldError>}

        <Rules>
          <Fieldset disabled={readOnly}>
            <legend>Нужно пройти</legend>
            <CheckLabel>
              <input
                type="radio"
                name={`required-${stage.key}`}
                checked={stage.required === null}
                onChange={() => update({ required: null })}
              />
              <span>все курсы</span>
            </CheckLabel>
            <AnyN>
              <CheckLabel>
                <input
                  type="radio"
                  name={`required-${stage.key}`}
                  checked={stage.required !== null}
                  onChange={() => update({ required: Math.max(1, stage.courses.length - 1) })}
                />
                <span>любые</span>
              </CheckLabel>
              <SmallInput
                type="number"
                min={1}
                max={Math.max(stage.courses.length, 1)}
                aria-label="Сколько курсов этапа нужно пройти"
                aria-invalid={errors.required ? true : undefined}
                disabled={stage.required === null}
                value={stage.required ?? ''}
                onChange={(e) => update({ required: e.target.value === '' ? 1 : Number(e.target.value) })}
              />
            </AnyN>
            {errors.required && <FieldError>{errors.required}</FieldError>}
          </Fieldset>

          <Fieldset disabled={readOnly}>
            <legend>Срок</legend>
            <DueLine>
              <SmallInput
                type="number"
                min={1}
                max={MAX_STAGE_DUE_DAYS}
                aria-label="Срок этапа, дней"
                aria-invalid={errors.dueDays ? true : undefined}
                value={stage.dueDays || ''}
                onChange={(e) => update({ dueDays: Number(e.target.value) })}
              />
              <span>дней</span>
              {first ? (
                <span>{STAGE_DUE_FROM_LABELS.assigned}</span>
              ) : (
                <CodeSelect
                  aria-label="От чего считается срок"
                  codes={STAGE_DUE_FROM}
                  labels={STAGE_DUE_FROM_LABELS}
                  value={stage.dueFrom}
                  onValue={(dueFrom) => update({ dueFrom })}
                />
              )}
            </DueLine>
            {(errors.dueDays || errors.dueFrom) && <FieldError>{errors.dueDays ?? errors.dueFrom}</FieldError>}
          </Fieldset>

          {!first && (
            <Check
              label="Закрыт до завершения предыдущего этапа"
              checked={stage.locked}
              disabled={readOnly}
              onChange={(e) => update({ locked: e.target.checked })}
            />
          )}
          {errors.locked && <FieldError>{errors.locked}</FieldError>}
        </Rules>
      </Card>
    </Slot>
  );
}

/** The stage's place in the list: it moves while dragged and is drawn above the others then. */
const Slot = styled.li<{ $dragging: boolean }>`
  min-width: 0;
  position: relative;
  z-index: ${({ $dragging }) => ($dragging ? 2 : 'auto')};
`;

const Card = styled.div<{ $dragging: boolean }>`
  display: grid;
  gap: 12px;
  min-width: 0;
  padding: 16px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme, $dragging }) => ($dragging ? '0 10px 24px rgba(0, 0, 0, 0.2)' : theme.shadow)};
  @media (max-width: 480px) {
    padding: 12px;
  }
`;

const Head = styled.div`
  display: flex;
  align-items: end;
  gap: 8px;
`;

const StageNumber = styled.span`
  flex-shrink: 0;
  width: 32px;
  height: 40px;
  display: grid;
  place-items: center;
  font-weight: 700;
  color: ${({ theme }) => theme.colors.primary};
`;

const TitleField = styled.div`
  flex: 1;
  min-width: 0;
`;

const Rules = styled.div`
  display: grid;
  gap: 12px;
  grid-template-columns: repeat(auto-fit, minmax(min(240px, 100%), 1fr));
  align-items: start;
`;

const Fieldset = styled.fieldset`
  display: grid;
  gap: 6px;
  min-width: 0;
  margin: 0;
  padding: 0;
  border: 0;
  legend {
    padding: 0;
    margin-bottom: 6px;
    font-size: 14px;
    font-weight: 500;
  }
`;

const AnyN = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
`;

const DueLine = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
  select {
    flex: 1 1 200px;
    min-width: 0;
  }
`;

const SmallInput = styled(Input)`
  width: 88px;
`;
