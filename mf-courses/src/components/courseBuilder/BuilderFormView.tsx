/** The form of «Создать с ИИ»: topic, audience, goals and options, checked against the contract's schema before a job starts. */
import { useId } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import styled from 'styled-components';
import {
  COURSE_LEVEL_SUGGESTIONS,
  GENERATION_LIMITS,
  type GenerateCourseRequest,
  type GenerationConfigInfo,
} from '@portal/contracts';
import {
  Button,
  Check,
  ErrorBox,
  Field,
  FieldError,
  FormActions,
  Input,
  Muted,
  RequiredMark,
  Select,
  Stack,
  TextArea,
  useCheckedForm,
  useFieldArray,
  type Refusal,
  type UseFormReturn,
} from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import {
  builderFieldOf,
  canAddGoal,
  emptyBuilderForm,
  firstProblem,
  toGenerateRequest,
  type BuilderField,
  type BuilderForm,
} from '../../model/courseBuilder';
import { Notice } from './parts';

export type BuilderFormState = UseFormReturn<BuilderForm, unknown, GenerateCourseRequest>;

/**
 * The builder's form, kept by the dialog so what was typed survives a failed or cancelled job. The
 * focus after a refused submit is the form's own (firstProblem): a message on the goals' list has
 * no input of its own, and its first goal takes the focus.
 */
export const useBuilderForm = (): BuilderFormState =>
  useCheckedForm(toGenerateRequest, emptyBuilderForm(), { shouldFocusError: false });

interface BuilderFormViewProps {
  form: BuilderFormState;
  /** Who will build the course (AI or templates), as the server says. */
  config: UseQueryResult<GenerationConfigInfo>;
  /** The job is being started: the fields are locked. */
  busy: boolean;
  /** Why the last start was refused: under the field the server names, else above the form. */
  error: Refusal | null;
  onSubmit: (request: GenerateCourseRequest) => void;
  onCancel: () => void;
  /** The topic's input, which takes the focus when the form shows. */
  topicRef: (el: HTMLElement | null) => void;
}

export function BuilderFormView({ form, config, busy, error, onSubmit, onCancel, topicRef }: BuilderFormViewProps) {
  const goals = useFieldArray({ control: form.control, name: 'goals' });
  const { errors } = form.formState;
  const ids = { quizzes: useId(), goalsHint: useId(), countsHint: useId() };

  const serverField = error?.field ? builderFieldOf(error.field.split('.')) : null;
  const messageFor = (field: BuilderField): string | undefined => {
    const own =
      field === 'goals'
        ? (errors.goals?.root?.message ?? errors.goals?.message)
        : field.startsWith('goals.')
          ? errors.goals?.[Number(field.split('.')[1])]?.text?.message
          : errors[field as Exclude<BuilderField, 'goals' | `goals.${number}.text`>]?.message;
    return own ?? (error && serverField === field ? error.message : undefined);
  };

  const addGoal = () => {
    if (canAddGoal(goals.fields.length)) goals.append({ text: '' }, { shouldFocus: true });
  };
  const removeGoal = (index: number) => {
    goals.remove(index);
    // The input before it, once the list has rendered without it.
    requestAnimationFrame(() => form.setFocus(`goals.${Math.max(0, index - 1)}.text`));
  };

  // A goal's own check re-runs as it changes; the list's message («add one») is the list's, which
  // react-hook-form does not re-check for a change inside it.
  const recheckGoals = () => {
    if (form.formState.errors.goals?.root) void form.trigger('goals');
  };

  const submit = form.handleSubmit(
    (request) => {
      if (!busy) onSubmit(request);
    },
    (problems) => {
      const first = firstProblem(problems);
      if (first) form.setFocus(first);
    },
  );

  const topic = form.register('topic');

  /** A count the builder may choose itself: blank means «авто». */
  const countField = (field: 'modulesCount' | 'lessonsPerModule', label: string, max: number) => (
    <Field label={label} error={messageFor(field)}>
      <Input
        type="number"
        inputMode="numeric"
        min={1}
        max={max}
        step={1}
        placeholder="авто"
        {...form.register(field)}
        aria-describedby={ids.countsHint}
      />
    </Field>
  );

  const goalsProblem = messageFor('goals');
  return (
    <Stack as="form" $gap={14} onSubmit={submit} noValidate aria-busy={busy}>
      <Notice role="note" $tone={config.data?.source === 'ai' ? 'ai' : 'template'}>
        {config.data
          ? config.data.notice
          : config.isError
            ? `Не удалось узнать, кто построит курс: ${errorMessage(config.error)}`
            : 'Проверяем, кто построит курс…'}
      </Notice>
      {error && !serverField && <ErrorBox>{error.message}</ErrorBox>}
      <Fieldset disabled={busy}>
        <Field required label="Тема курса" error={messageFor('topic')}>
          <Input
            required
            maxLength={200}
            placeholder="Например: переговоры с клиентами"
            {...topic}
            ref={(el) => {
              topic.ref(el);
              topicRef(el);
            }}
          />
        </Field>
        <Field required label="Аудитория" error={messageFor('audience')}>
          <TextArea
            required
            rows={2}
            maxLength={500}
            placeholder="Кто будет учиться и что уже умеет"
            {...form.register('audience')}
          />
        </Field>
        <Goals aria-describedby={goalsProblem ? `${ids.goalsHint}-error` : ids.goalsHint}>
          <legend>
            Цели обучения
            <RequiredMark />
          </legend>
          <Muted id={ids.goalsHint}>
            Что ученик сможет сделать после курса — одна цель в строке, до {GENERATION_LIMITS.goals}.
          </Muted>
          <GoalList>
            {goals.fields.map((goal, index) => {
              const problem = messageFor(`goals.${index}.text`);
              const errorId = `${ids.goalsHint}-goal-${index}`;
              return (
                <li key={goal.id}>
                  <GoalRow>
                    <Input
                      aria-label={`Цель ${index + 1}`}
                      maxLength={300}
                      {...form.register(`goals.${index}.text`, { onChange: recheckGoals })}
                      aria-invalid={problem ? true : undefined}
                      aria-describedby={problem ? errorId : undefined}
                    />
                    <Button
                      type="button"
                      $variant="ghost"
                      $size="icon"
                      aria-label={`Удалить цель ${index + 1}`}
                      title="Удалить цель"
                      disabled={goals.fields.length === 1}
                      onClick={() => removeGoal(index)}
                    >
                      ✕
                    </Button>
                  </GoalRow>
                  {problem && <FieldError id={errorId}>{problem}</FieldError>}
                </li>
              );
            })}
          </GoalList>
          {goalsProblem && <FieldError id={`${ids.goalsHint}-error`}>{goalsProblem}</FieldError>}
          <div>
            <Button type="button" $variant="outline" $size="sm" disabled={!canAddGoal(goals.fields.length)} onClick={addGoal}>
              Добавить цель
            </Button>
          </div>
        </Goals>
        <Row>
          <Field label="Уровень" error={messageFor('level')}>
            <Select {...form.register('level')}>
              {COURSE_LEVEL_SUGGESTIONS.map((level) => (
                <option key={level} value={level}>
                  {level}
                </option>
              ))}
            </Select>
          </Field>
          {countField('modulesCount', 'Модулей', GENERATION_LIMITS.modules)}
          {countField('lessonsPerModule', 'Уроков в модуле', GENERATION_LIMITS.lessonsPerModule)}
        </Row>
        <Hint id={ids.countsHint}>Пустое поле — автоматически: по модулю на цель, плюс введение и итоговая аттестация.</Hint>
        <Check label="Добавить квизы" id={ids.quizzes} {...form.register('withQuizzes')} />
      </Fieldset>
      <StickyFoot>
        <FormActions busy={busy} submitLabel={busy ? 'Запускаем…' : 'Сгенерировать курс'} onCancel={onCancel} />
      </StickyFoot>
    </Stack>
  );
}

const Fieldset = styled.fieldset`
  display: grid;
  gap: 14px;
  margin: 0;
  padding: 0;
  border: 0;
  min-width: 0;
`;
const Row = styled.div`
  display: grid;
  gap: 12px;
  grid-template-columns: repeat(auto-fit, minmax(130px, 1fr));
`;
const Goals = styled.fieldset`
  display: grid;
  gap: 8px;
  margin: 0;
  padding: 0;
  border: 0;
  min-width: 0;
  legend {
    padding: 0;
    margin-bottom: 2px;
    font-size: 14px;
    font-weight: 500;
  }
  ${Muted} {
    margin: 0;
    font-size: 13px;
  }
`;
const GoalList = styled.ol`
  display: grid;
  gap: 8px;
  margin: 0;
  padding: 0;
  list-style: none;
`;
const GoalRow = styled.div`
  display: flex;
  gap: 6px;
  align-items: center;
`;
const Hint = styled.p`
  margin: -6px 0 0;
  font-size: 13px;
  color: ${({ theme }) => theme.colors.muted};
`;
/** The form's buttons stay in sight while the fields scroll under them (the kit's foot adds 8px above them). */
const StickyFoot = styled.div`
  position: sticky;
  bottom: 0;
  padding: 4px 0 2px;
  background: ${({ theme }) => theme.colors.surface};
  border-top: 1px solid ${({ theme }) => theme.colors.border};
`;
