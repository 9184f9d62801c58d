import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import { COURSE_LEVEL_SUGGESTIONS, GENERATION_LIMITS, GENERATION_MSG, type GenerationJob } from '@portal/contracts';
import {
  Button,
  Check,
  Dialog,
  ErrorBox,
  Field,
  FieldError,
  FormActions,
  Input,
  Muted,
  ProgressBar,
  RequiredMark,
  Select,
  Stack,
  TextArea,
  VisuallyHidden,
  useCurrentState,
} from '@portal/ui';
import { ApiError, errorMessage, navigate, paths } from '@portal/web-core';
import { readAgain, useGenerationJobPoll } from '@portal/web-core/query';
import { COURSES_KEY } from '../api/courses';
import {
  GENERATION_CONFIG_KEY,
  cancelGeneration,
  fetchCourse,
  fetchGenerationConfig,
  fetchGenerationJob,
  generatedCourseKey,
  startCourseGeneration,
} from '../api/generation';
import {
  BUILDER_STEPS,
  canAddGoal,
  draftReadyText,
  emptyBuilderForm,
  failureOf,
  firstProblem,
  phaseOfJob,
  progressOf,
  stageMarks,
  stepIndexOf,
  summarizeDraft,
  toGenerateRequest,
  type BuilderErrors,
  type BuilderField,
  type BuilderForm,
  type BuilderPhase,
} from '../model/courseBuilder';

/** The contract's polling period: EventSource cannot send the bearer token, so the client asks. */
/** Long enough to read the summary, short enough not to wait for. */
const OPEN_EDITOR_AFTER_MS = 1500;

interface CourseBuilderDialogProps {
  onClose: () => void;
}

/**
 * «Создать с ИИ»: topic, audience and goals → a generation job polled with its progress → a summary
 * of the draft, then the editor. Mounted only while open, so every opening starts afresh. Closing
 * (✕, Esc, «Отмена») while a job runs cancels it, asking nothing: nothing half-made is kept.
 */
export function CourseBuilderDialog({ onClose }: CourseBuilderDialogProps) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<BuilderForm>(emptyBuilderForm);
  const [problems, setProblems] = useState<BuilderErrors>({});
  // Handlers of calls in flight read the phase of now, not of the render that started them.
  const [phase, setPhase, phaseRef] = useCurrentState<BuilderPhase>({ step: 'form', error: null });
  const alive = useRef(true);
  const leaving = useRef(false);
  const fieldRefs = useRef(new Map<BuilderField, HTMLElement>());
  const focusRef = useRef<HTMLElement | null>(null);
  const ids = { quizzes: useId(), goalsHint: useId(), countsHint: useId() };

  // The native dialog gives focus back only when closed, not when removed: do it here. The opener is
  // read while rendering, before the dialog opens and takes the focus.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      if (!leaving.current && opener?.isConnected) opener.focus();
    };
  }, [opener]);

  // Each step puts the focus on what matters in it, since the button pressed has just gone: the
  // topic on the form, the main action elsewhere. (This effect runs after the shared Dialog's own,
  // so the dialog is already open.) While the request starts, the focus stays where it is.
  useEffect(() => {
    if (phase.step === 'starting') return;
    (phase.step === 'form' ? fieldRefs.current.get('topic') : focusRef.current)?.focus();
  }, [phase.step]);

  const config = useQuery({
    queryKey: GENERATION_CONFIG_KEY,
    queryFn: ({ signal }) => fetchGenerationConfig(signal),
    staleTime: 60_000,
  });

  const runningId = phase.step === 'running' ? phase.job.id : null;
  const poll = useGenerationJobPoll(runningId, fetchGenerationJob);

  useEffect(() => {
    const current = phaseRef.current;
    if (!poll.data || current.step !== 'running' || poll.data.id !== current.job.id) return;
    const next = phaseOfJob(poll.data);
    if (next.step === 'succeeded') void readAgain(queryClient, COURSES_KEY);
    setPhase(next);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new answer moves the dialog on
  }, [poll.data]);

  useEffect(() => {
    if (poll.error && phaseRef.current.step === 'running') setPhase(failureOf(poll.error));
  }, [poll.error, phaseRef, setPhase]);

  const courseId = phase.step === 'succeeded' ? phase.courseId : null;
  const course = useQuery({
    queryKey: generatedCourseKey(courseId),
    queryFn: ({ signal }) => fetchCourse(courseId as string, signal),
    enabled: courseId !== null,
    staleTime: 0,
    gcTime: 0,
  });
  const summary = course.data ? draftReadyText(summarizeDraft(course.data)) : null;

  const openEditor = (id: string) => {
    leaving.current = true;
    navigate(paths.editor(id));
  };

  // The editor opens by itself once the summary has been on screen for a moment.
  const autoOpen = phase.step === 'succeeded' && !phase.late && !course.isPending;
  useEffect(() => {
    if (!autoOpen || !courseId) return;
    const timer = setTimeout(() => openEditor(courseId), OPEN_EDITOR_AFTER_MS);
    return () => clearTimeout(timer);
  }, [autoOpen, courseId]);

  /** A job nobody will look at again is stopped; whether that worked changes nothing for the author. */
  const cancelQuietly = (job: GenerationJob) => void cancelGeneration(job.id).catch(() => undefined);

  const update = <K extends keyof BuilderForm>(key: K, value: BuilderForm[K], field: BuilderField = key as BuilderField) => {
    setForm((f) => ({ ...f, [key]: value }));
    setProblems((p) => (p[field] ? { ...p, [field]: undefined } : p));
  };
  const setGoal = (index: number, value: string) => {
    setForm((f) => ({ ...f, goals: f.goals.map((g, i) => (i === index ? value : g)) }));
    setProblems((p) => ({ ...p, [`goal:${index}`]: undefined, goals: undefined }));
  };
  const addGoal = () => {
    if (!canAddGoal(form)) return;
    const index = form.goals.length;
    setForm((f) => ({ ...f, goals: [...f.goals, ''] }));
    // The new input exists after this render.
    requestAnimationFrame(() => fieldRefs.current.get(`goal:${index}`)?.focus());
  };
  const removeGoal = (index: number) => {
    setForm((f) => ({ ...f, goals: f.goals.filter((_, i) => i !== index) }));
    // Messages beside goals follow their inputs; the simplest honest thing is to check again on submit.
    setProblems((p) => Object.fromEntries(Object.entries(p).filter(([k]) => !k.startsWith('goal:'))));
    requestAnimationFrame(() => fieldRefs.current.get(`goal:${Math.max(0, index - 1)}`)?.focus());
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (phaseRef.current.step !== 'form') return;
    const checked = toGenerateRequest(form);
    if (!checked.ok) {
      setProblems(checked.errors);
      const first = firstProblem(checked.errors);
      if (first) fieldRefs.current.get(first === 'goals' ? 'goal:0' : first)?.focus();
      return;
    }
    setProblems({});
    setPhase({ step: 'starting' });
    try {
      const job = await startCourseGeneration(checked.request);
      if (!alive.current) return cancelQuietly(job);
      setPhase(phaseOfJob(job));
    } catch (err) {
      if (alive.current) setPhase({ step: 'form', error: errorMessage(err) });
    }
  };

  const cancel = async (job: GenerationJob) => {
    setPhase({ step: 'cancelling', job });
    try {
      const answer = await cancelGeneration(job.id);
      if (alive.current) setPhase(phaseOfJob(answer));
    } catch (err) {
      if (!alive.current) return;
      if (!(err instanceof ApiError && err.status === 409)) return setPhase(failureOf(err));
      // It finished before the cancel arrived: say what there is now rather than pretend it was stopped.
      try {
        const latest = await fetchGenerationJob(job.id);
        if (latest.status === 'succeeded') void readAgain(queryClient, COURSES_KEY);
        if (alive.current) setPhase(phaseOfJob(latest, true));
      } catch (again) {
        if (alive.current) setPhase(failureOf(again));
      }
    }
  };

  const close = () => {
    const current = phaseRef.current;
    if (current.step === 'running') cancelQuietly(current.job);
    onClose();
  };

  const backToForm = () => setPhase({ step: 'form', error: null });

  const bindField = (field: BuilderField) => (el: HTMLElement | null) => {
    if (el) fieldRefs.current.set(field, el);
    else fieldRefs.current.delete(field);
  };
  const bindFocus = (el: HTMLElement | null) => {
    focusRef.current = el;
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

  const formView = () => {
    const busy = phase.step === 'starting';
    const goalsProblem = problems.goals;
    return (
      <Stack as="form" $gap={14} onSubmit={(e) => void submit(e)} noValidate aria-busy={busy}>
        <Notice role="note" $tone={config.data?.source === 'ai' ? 'ai' : 'template'}>
          {config.data
            ? config.data.notice
            : config.isError
              ? `Не удалось узнать, кто построит курс: ${errorMessage(config.error)}`
              : 'Проверяем, кто построит курс…'}
        </Notice>
        {phase.step === 'form' && phase.error && <ErrorBox>{phase.error}</ErrorBox>}
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
          <FormActions busy={busy} submitLabel={busy ? 'Запускаем…' : 'Сгенерировать курс'} onCancel={close} />
        </StickyFoot>
      </Stack>
    );
  };

  const progressView = (job: GenerationJob, cancelling: boolean) => {
    const { value, label } = progressOf(job);
    const withQuizzes = form.withQuizzes;
    return (
      <Panel>
        <Notice role="note" $tone={job.source}>
          {job.notice}
        </Notice>
        <ProgressBar name="Ход генерации" value={value} valueText={`${value}% — ${label}`} />
        <StageNow aria-live="polite">
          <span>{label}</span>
          <span>{value}%</span>
        </StageNow>
        <Stages aria-label="Этапы генерации">
          {stageMarks(job, withQuizzes).map((s) => (
            <StageItem key={s.stage} $mark={s.mark} aria-current={s.mark === 'current' ? 'step' : undefined}>
              <StageDot $mark={s.mark} aria-hidden="true">
                {s.mark === 'done' ? '✓' : ''}
              </StageDot>
              <span>
                {s.label}
                <VisuallyHidden>
                  {s.mark === 'done' ? ' — готово' : s.mark === 'current' ? ' — сейчас' : ' — впереди'}
                </VisuallyHidden>
              </span>
            </StageItem>
          ))}
        </Stages>
        <Actions>
          <Button ref={bindFocus} type="button" $variant="outline" disabled={cancelling} onClick={() => void cancel(job)}>
            {cancelling ? 'Отменяем…' : 'Отменить'}
          </Button>
        </Actions>
      </Panel>
    );
  };

  const endedView = (message: string, kind: 'cancelled' | 'failed') => (
    <Panel>
      {kind === 'failed' ? <ErrorBox>{message}</ErrorBox> : <Status role="status">{message}</Status>}
      <Muted>Введённые тема, аудитория и цели сохранены в форме.</Muted>
      <Actions>
        <Button type="button" $variant="outline" onClick={close}>
          К списку курсов
        </Button>
        <Button ref={bindFocus} type="button" onClick={backToForm}>
          {kind === 'failed' ? 'Попробовать снова' : 'Вернуться к форме'}
        </Button>
      </Actions>
    </Panel>
  );

  const successView = (job: GenerationJob, id: string, late: boolean) => (
    <Panel>
      <Done role="status">
        <DoneMark aria-hidden="true">✓</DoneMark>
        <div>
          <strong>{summary ?? (course.isError ? 'Черновик готов' : 'Черновик готов, считаем модули…')}</strong>
          {late && <Muted as="span">{GENERATION_MSG.alreadyFinished}: черновик сохранён.</Muted>}
        </div>
      </Done>
      <Notice role="note" $tone={job.source}>
        {job.notice}
      </Notice>
      <Muted>
        Дальше — шаги 3 и 4: настройте содержание в редакторе и опубликуйте курс, когда он будет готов. Черновик виден только
        авторам.
      </Muted>
      {!late && <Muted>Редактор откроется сам через пару секунд.</Muted>}
      <Actions>
        <Button type="button" $variant="outline" onClick={close}>
          К списку курсов
        </Button>
        <Button ref={bindFocus} type="button" onClick={() => openEditor(id)}>
          Открыть редактор
        </Button>
      </Actions>
    </Panel>
  );

  const body = () => {
    switch (phase.step) {
      case 'form':
      case 'starting':
        return formView();
      case 'running':
        return progressView(phase.job, false);
      case 'cancelling':
        return progressView(phase.job, true);
      case 'cancelled':
        return endedView(phase.message, 'cancelled');
      case 'failed':
        return endedView(phase.message, 'failed');
      case 'succeeded':
        return successView(phase.job, phase.courseId, phase.late);
    }
  };

  const at = stepIndexOf(phase);
  return (
    <Dialog open title="Создать курс с ИИ" onClose={close}>
      <Steps aria-label="Шаги создания курса">
        {BUILDER_STEPS.map((title, index) => {
          const state = index < at ? 'done' : index === at ? 'current' : 'todo';
          return (
            <StepItem key={title} $state={state} aria-current={state === 'current' ? 'step' : undefined}>
              <StepNumber $state={state} aria-hidden="true">
                {state === 'done' ? '✓' : index + 1}
              </StepNumber>
              <span>
                <VisuallyHidden>{index + 1}. </VisuallyHidden>
                {title}
              </span>
            </StepItem>
          );
        })}
      </Steps>
      <Body>{body()}</Body>
    </Dialog>
  );
}

type Mark = 'done' | 'current' | 'todo';

const Steps = styled.ol`
  display: grid;
  grid-template-columns: repeat(4, 1fr);
  gap: 8px;
  margin: 0 0 16px;
  padding: 0;
  list-style: none;
`;
const StepItem = styled.li<{ $state: Mark }>`
  display: grid;
  justify-items: center;
  gap: 6px;
  text-align: center;
  font-size: 12px;
  line-height: 1.3;
  font-weight: ${({ $state }) => ($state === 'current' ? 600 : 400)};
  color: ${({ theme, $state }) => ($state === 'todo' ? theme.colors.muted : theme.colors.text)};
`;
const StepNumber = styled.span<{ $state: Mark }>`
  display: inline-grid;
  place-items: center;
  width: 28px;
  height: 28px;
  border-radius: 50%;
  font-size: 13px;
  font-weight: 700;
  border: 2px solid ${({ theme, $state }) => ($state === 'todo' ? theme.colors.border : theme.colors.primary)};
  background: ${({ theme, $state }) => ($state === 'todo' ? 'transparent' : theme.colors.primary)};
  color: ${({ theme, $state }) => ($state === 'todo' ? theme.colors.muted : theme.colors.primaryText)};
`;
/**
 * One height for every step, so the dialog neither jumps nor moves between them; the form scrolls
 * inside it (the dialog leaves 48px of the viewport; its padding, title and steps take about 190px).
 */
const Body = styled.div`
  flex: none;
  height: min(560px, calc(100vh - 250px));
  min-height: 0;
  overflow-y: auto;
  margin: 0 -4px;
  padding: 0 4px 2px;
`;
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
const Notice = styled.p<{ $tone: 'ai' | 'template' }>`
  margin: 0;
  padding: 10px 14px;
  font-size: 14px;
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  border-left: 4px solid ${({ theme, $tone }) => ($tone === 'ai' ? theme.colors.primary : theme.colors.warning)};
  min-height: 42px;
`;
const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
  flex-wrap: wrap;
  margin-top: 4px;
`;
const Panel = styled.div`
  display: grid;
  gap: 14px;
  align-content: start;
  ${Muted} {
    margin: 0;
  }
`;
/** The form's buttons stay in sight while the fields scroll under them (the kit's foot adds 8px above them). */
const StickyFoot = styled.div`
  position: sticky;
  bottom: 0;
  padding: 4px 0 2px;
  background: ${({ theme }) => theme.colors.surface};
  border-top: 1px solid ${({ theme }) => theme.colors.border};
`;
const StageNow = styled.p`
  display: flex;
  justify-content: space-between;
  margin: -6px 0 0;
  font-weight: 600;
  font-variant-numeric: tabular-nums;
`;
const Stages = styled.ol`
  display: grid;
  gap: 8px;
  margin: 0;
  padding: 0;
  list-style: none;
`;
const StageItem = styled.li<{ $mark: Mark }>`
  display: flex;
  align-items: center;
  gap: 10px;
  font-size: 14px;
  font-weight: ${({ $mark }) => ($mark === 'current' ? 600 : 400)};
  color: ${({ theme, $mark }) => ($mark === 'todo' ? theme.colors.muted : theme.colors.text)};
`;
const StageDot = styled.span<{ $mark: Mark }>`
  display: inline-grid;
  place-items: center;
  flex: none;
  width: 20px;
  height: 20px;
  border-radius: 50%;
  font-size: 12px;
  border: 2px solid ${({ theme, $mark }) => ($mark === 'todo' ? theme.colors.border : theme.colors.primary)};
  background: ${({ theme, $mark }) => ($mark === 'done' ? theme.colors.primary : 'transparent')};
  color: ${({ theme }) => theme.colors.primaryText};
  box-shadow: ${({ theme, $mark }) => ($mark === 'current' ? `inset 0 0 0 3px ${theme.colors.surface}, inset 0 0 0 10px ${theme.colors.primary}` : 'none')};
`;
const Status = styled.p`
  margin: 0;
  padding: 12px 16px;
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  border: 1px solid ${({ theme }) => theme.colors.border};
`;
const Done = styled.div`
  display: flex;
  gap: 12px;
  align-items: flex-start;
  strong {
    display: block;
    font-size: 16px;
  }
`;
const DoneMark = styled.span`
  display: inline-grid;
  place-items: center;
  flex: none;
  width: 32px;
  height: 32px;
  border-radius: 50%;
  font-weight: 700;
  background: ${({ theme }) => theme.colors.success};
  color: ${({ theme }) => theme.colors.surface};
`;
