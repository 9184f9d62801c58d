/** The form of «Создать с ИИ»: topic, audience, goals and options, checked against the contract's schema before a job starts. */
import { useId, useRef, useState, type ChangeEvent, type Dispatch, type FormEvent, type SetStateAction } from 'react';
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
} from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import {
  canAddGoal,
  firstProblem,
  toGenerateRequest,
  type BuilderErrors,
  type BuilderField,
  type BuilderForm,
} from '../../model/courseBuilder';
import { Notice } from './parts';

interface BuilderFormViewProps {
  /** Kept by the dialog, so what was typed survives a failed or cancelled job. */
  form: BuilderForm;
  onFormChange: Dispatch<SetStateAction<BuilderForm>>;
  /** Who will build the course (AI or templates), as the server says. */
  config: UseQueryResult<GenerationConfigInfo>;
  /** The job is being started: the fields are locked. */
  busy: boolean;
  /** Why the last start failed. */
  error: string | null;
  onSubmit: (request: GenerateCourseRequest) => void;
  onCancel: () => void;
  /** The topic's input, which takes the focus when the form shows. */
  topicRef: (el: HTMLElement | null) => void;
}

export function BuilderFormView({ form, onFormChange, config, busy, error, onSubmit, onCancel, topicRef }: BuilderFormViewProps) {
  const [problems, setProblems] = useState<BuilderErrors>({});
  const fieldRefs = useRef(new Map<BuilderField, HTMLElement>());
  const ids = { quizzes: useId(), goalsHint: useId(), countsHint: useId() };

  const update = <K extends keyof BuilderForm>(key: K, value: BuilderForm[K], field: BuilderField = key as BuilderField) => {
    onFormChange((f) => ({ ...f, [key]: value }));
    setProblems((p) => (p[field] ? { ...p, [field]: undefined } : p));
  };
  const setGoal = (index: number, value: string) => {
    onFormChange((f) => ({ ...f, goals: f.goals.map((g, i) => (i === index ? value : g)) }));
    setProblems((p) => ({ ...p, [`goal:${index}`]: undefined, goals: undefined }));
  };
  const addGoal = () => {
    if (!canAddGoal(form)) return;
    const index = form.goals.length;
    onFormChange((f) => ({ ...f, goals: [...f.goals, ''] }));
    // The new input exists after this render.
    requestAnimationFrame(() => fieldRefs.current.get(`goal:${index}`)?.focus());
  };
  const removeGoal = (index: number) => {
    onFormChange((f) => ({ ...f, goals: f.goals.filter((_, i) => i !== index) }));
    // Messages beside goals follow their inputs; the simplest honest thing is to check again on submit.
    setProblems((p) => Object.fromEntries(Object.entries(p).filter(([k]) => !k.startsWith('goal:'))));
    requestAnimationFrame(() => fieldRefs.current.get(`goal:${Math.max(0, index - 1)}`)?.focus());
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const checked = toGenerateRequest(form);
    if (!checked.ok) {
      setProblems(checked.errors);
      const first = firstProblem(checked.errors);
      if (first) fieldRefs.current.get(first === 'goals' ? 'goal:0' : first)?.focus();
      return;
    }
    setProblems({});
    onSubmit(checked.request);
  };

  const bindField = (field: BuilderField) => (el: HTMLElement | null) => {
    if (el) fieldRefs.current.set(field, el);
    else fieldRefs.current.delete(field);
    if (field === 'topic') topicRef(el);
  };
  const problemProps = (field: BuilderField, errorId: string) => ({
    'aria-invalid': problems[field] ? true : undefined,
    'aria-describedby': problems[field] ? errorId : undefined,
  });

  /** The control of a required text field: bound to the form, focused on a problem. */
  const requiredProps = (field: 'topic' | 'audience') => ({
    ref: bindField(field),
    required: true,
    value: form[field],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => update(field, e.target.value),
  });

  /** A count the builder may choose itself: blank means «авто». */
  const countField = (field: 'modulesCount' | 'lessonsPerModule', label: string, max: number) => (
    <Field label={label} error={problems[field]}>
      <Input
        ref={bindField(field)}
        type="number"
        inputMode="numeric"
        min={1}
        max={max}
        step={1}
        placeholder="авто"
        value={form[field]}
        onChange={(e) => update(field, e.target.value)}
        aria-describedby={ids.countsHint}
      />
    </Field>
  );

  const goalsProblem = problems.goals;
  return (
    <Stack as="form" $gap={14} onSubmit={submit} noValidate aria-busy={busy}>
      <Notice role="note" $tone={config.data?.source === 'ai' ? 'ai' : 'template'}>
        {config.data
          ? config.data.notice
          : config.isError
            ? `Не удалось узнать, кто построит курс: ${errorMessage(config.error)}`
            : 'Проверяем, кто построит курс…'}
      </Notice>
      {error && <ErrorBox>{error}</ErrorBox>}
      <Fieldset disabled={busy}>
        <Field required label="Тема курса" error={problems.topic}>
          <Input {...requiredProps('topic')} maxLength={200} placeholder="Например: переговоры с клиентами" />
        </Field>
        <Field required label="Аудитория" error={problems.audience}>
          <TextArea {...requiredProps('audience')} rows={2} maxLength={500} placeholder="Кто будет учиться и что уже умеет" />
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
            {form.goals.map((goal, index) => {
              const field: BuilderField = `goal:${index}`;
              const errorId = `${ids.goalsHint}-goal-${index}`;
              return (
                // Goals have no identity but their place; the list only grows at the end or loses one.
                <li key={index}>
                  <GoalRow>
                    <Input
                      ref={bindField(field)}
                      aria-label={`Цель ${index + 1}`}
                      maxLength={300}
                      value={goal}
                      onChange={(e) => setGoal(index, e.target.value)}
                      {...problemProps(field, errorId)}
                    />
                    <Button
                      type="button"
                      $variant="ghost"
                      $size="icon"
                      aria-label={`Удалить цель ${index + 1}`}
                      title="Удалить цель"
                      disabled={form.goals.length === 1}
                      onClick={() => removeGoal(index)}
                    >
                      ✕
                    </Button>
                  </GoalRow>
                  {problems[field] && <FieldError id={errorId}>{problems[field]}</FieldError>}
                </li>
              );
            })}
          </GoalList>
          {goalsProblem && <FieldError id={`${ids.goalsHint}-error`}>{goalsProblem}</FieldError>}
          <div>
            <Button type="button" $variant="outline" $size="sm" disabled={!canAddGoal(form)} onClick={addGoal}>
              Добавить цель
            </Button>
          </div>
        </Goals>
        <Row>
          <Field label="Уровень">
            <Select ref={bindField('level')} value={form.level} onChange={(e) => update('level', e.target.value)}>
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
        <Check
          label="Добавить квизы"
          id={ids.quizzes}
          checked={form.withQuizzes}
          onChange={(e) => update('withQuizzes', e.target.checked)}
        />
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
