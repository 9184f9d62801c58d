import { useMemo, useReducer, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useMutation, useQuery } from '@tanstack/react-query';
import { MAX_PROGRAM_STAGES, PROGRAM_MSG, programInputSchema, type Program, type ProgramCourse } from '@portal/contracts';
import { Button, Check, ErrorBox, Field, Input, Muted, Row, TextArea } from '@portal/ui';
import { ApiError, errorMessage, navigate, paths } from '@portal/web-core';
import { assignmentKeys, fetchPublishedCourses } from '../../api/assignments';
import { saveProgram } from '../../api/programs';
import { SortableList } from '../../components/programs/ProgramDnd';
import { StageCard } from '../../components/programs/StageCard';
import { StageList, TitleBar } from '../../components/programs/layout';
import { errorsOfIssues, fieldKey, formWideErrors, stageErrorsOf, type FieldErrors } from '../../components/programs/formErrors';
import { draftOf, draftReducer, hasCourse, inputOf, newStageKey } from '../../components/programs/stagesModel';
import { ProgramCoAuthors } from '../../components/programs/ProgramCoAuthors';
import { ProgramActions } from './ProgramActions';

interface ProgramFormProps {
  program: Program;
  onSaved: (program: Program) => void;
  onReload: () => Promise<void>;
  /** The reader is the program's owner or an ADMIN: they may change its co-authors. */
  canManageCoAuthors: boolean;
}

const STALE = 'Программу изменил другой пользователь. Загрузите её заново: ваши несохранённые изменения пропадут.';

/** The editor's form: the program's fields and its stages; «Сохранить» sends the version it was read at. */
export function ProgramForm({ program, onSaved, onReload, canManageCoAuthors }: ProgramFormProps) {
  const [draft, dispatch] = useReducer(draftReducer, program, draftOf);
  const [coAuthorIds, setCoAuthorIds] = useState<string[]>(program.coAuthorIds);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [stale, setStale] = useState(false);
  const courses = useQuery({ queryKey: assignmentKeys.courses, queryFn: ({ signal }) => fetchPublishedCourses(signal) });
  const archived = program.status === 'archived';
  const readOnly = !program.canEdit || archived;
  // The whole list goes with every save: unchanged, the server keeps it and asks no owner's right.
  const input = () => ({ ...inputOf(draft), coAuthorIds });
  const saved = useMemo(() => JSON.stringify({ ...inputOf(draftOf(program)), coAuthorIds: program.coAuthorIds }), [program]);
  const dirty = JSON.stringify(input()) !== saved;

  const available: ProgramCourse[] = (courses.data ?? [])
    .filter((c) => !hasCourse(draft, c.id))
    .map((c) => ({ id: c.id, title: c.title, published: true }));

  const save = useMutation({
    mutationFn: () => saveProgram(program.id, input(), program.version),
    onSuccess: onSaved,
    onError: (err) => {
      if (err instanceof ApiError && err.status === 412) return setStale(true);
      if (err instanceof ApiError && err.field) setErrors({ [fieldKey(err.field)]: err.message });
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = programInputSchema.safeParse(input());
    if (!checked.success) return setErrors(errorsOfIssues(checked.error.issues));
    setErrors({});
    save.mutate();
  };

  const formWide = formWideErrors(errors);
  // A refusal without a field (or a failure) is said beside the form; one with a field, under it.
  const saveFailed = save.isError && !stale && !(save.error instanceof ApiError && save.error.field);

  return (
    <>
      <Button type="button" $variant="link" onClick={() => navigate(paths.programs())}>
        ← Программы
      </Button>
      <TitleBar>
        <h1>{program.title}</h1>
        <ProgramActions program={program} dirty={dirty} onChanged={onSaved} />
      </TitleBar>
      <Muted>
        Автор: {program.owner.fullName}
        {archived ? ' · в архиве' : ''}
      </Muted>
      {!program.canEdit && <Note role="note">Только просмотр. {PROGRAM_MSG.notYours}.</Note>}
      {program.canEdit && archived && <Note role="note">Только просмотр. {PROGRAM_MSG.archived}.</Note>}

      <Form onSubmit={submit} noValidate aria-label="Программа">
        <Field label="Название" error={errors.title} required>
          <Input
            value={draft.title}
            maxLength={200}
            readOnly={readOnly}
            onChange={(e) => dispatch({ type: 'setField', field: 'title', value: e.target.value })}
          />
        </Field>
        <Field label="Описание" error={errors.description}>
          <TextArea
            rows={3}
            value={draft.description}
            maxLength={5000}
            readOnly={readOnly}
            onChange={(e) => dispatch({ type: 'setField', field: 'description', value: e.target.value })}
          />
        </Field>
        <Check
          label="Выдавать сертификат по программе"
          checked={draft.certificate}
          disabled={readOnly}
          onChange={(e) => dispatch({ type: 'setCertificate', value: e.target.checked })}
        />

        <h2>Этапы</h2>
        <SortableList ids={draft.stages.map((s) => s.key)} onMove={(from, to) => dispatch({ type: 'moveStage', from, to })}>
          <StageList aria-label="Этапы программы">
            {draft.stages.map((stage, index) => (
              <StageCard
                key={stage.key}
                stage={stage}
                index={index}
                readOnly={readOnly}
                removable={draft.stages.length > 1}
                available={available}
                coursesLoading={courses.isPending}
                errors={stageErrorsOf(errors, index)}
                dispatch={dispatch}
              />
            ))}
          </StageList>
        </SortableList>
        {!readOnly && (
          <div>
            <Button
              type="button"
              $variant="outline"
              disabled={draft.stages.length >= MAX_PROGRAM_STAGES}
              onClick={() => dispatch({ type: 'addStage', key: newStageKey() })}
            >
              + Добавить этап
            </Button>
          </div>
        )}
        <ProgramCoAuthors
          owner={program.owner}
          saved={program.coAuthors}
          coAuthorIds={coAuthorIds}
          canManage={canManageCoAuthors}
          readOnly={readOnly}
          onChange={setCoAuthorIds}
        />
        {courses.isError && <ErrorBox>{errorMessage(courses.error, 'Не удалось загрузить опубликованные курсы')}</ErrorBox>}

        {formWide.map((message) => (
          <ErrorBox key={message}>{message}</ErrorBox>
        ))}
        {saveFailed && <ErrorBox>{errorMessage(save.error, 'Не удалось сохранить программу')}</ErrorBox>}
        {stale && (
          <ErrorBox>
            <p>{STALE}</p>
            <Button type="button" $variant="outline" onClick={() => void onReload()}>
              Загрузить заново
            </Button>
          </ErrorBox>
        )}
        {!readOnly && (
          <Footer>
            <Button type="submit" disabled={save.isPending || stale || !dirty}>
              {save.isPending ? 'Сохранение...' : 'Сохранить'}
            </Button>
            <Muted as="span" role="status">
              {dirty ? 'Есть несохранённые изменения' : 'Все изменения сохранены'}
            </Muted>
          </Footer>
        )}
      </Form>
    </>
  );
}

const Note = styled.p`
  padding: 10px 14px;
  border-radius: 10px;
  background: ${({ theme }) => theme.colors.surfaceAlt};
`;

const Form = styled.form`
  display: grid;
  gap: 16px;
  margin-top: 16px;
  min-width: 0;
  h2 {
    margin: 8px 0 0;
    font-size: 20px;
  }
  p {
    margin: 0 0 8px;
  }
`;

const Footer = styled(Row)`
  position: sticky;
  bottom: 0;
  padding: 12px 0;
  background: ${({ theme }) => theme.colors.bg};
`;
