import {
  COURSE_LEVEL_SUGGESTIONS,
  GENERATION_LIMITS,
  GENERATION_MSG,
  GENERATION_STAGE_LABELS,
  GENERATION_STAGES,
  generateCourseSchema,
  lessonsLabel,
  type Course,
  type GenerateCourseRequest,
  type GenerationJob,
  type GenerationStage,
  ruCount,
} from '@portal/contracts';
import { messagesByField, type FieldErrors, type FormCheck, type Refusal } from '@portal/ui';
import { ApiError, errorMessage } from '@portal/web-core';

/**
 * What the author types into «Создать с ИИ»: numbers stay text so an empty field means «automatic»;
 * each goal is an object, as a form's list of inputs keeps its items.
 */
export interface BuilderForm {
  topic: string;
  audience: string;
  goals: Array<{ text: string }>;
  level: string;
  modulesCount: string;
  lessonsPerModule: string;
  withQuizzes: boolean;
}

/** Where a message can stand: a field, the goals' list (`goals`) or one goal's input (`goals.N.text`). */
export type BuilderField =
  'topic' | 'audience' | 'goals' | 'level' | 'modulesCount' | 'lessonsPerModule' | `goals.${number}.text`;

export const emptyBuilderForm = (): BuilderForm => ({
  topic: '',
  audience: '',
  goals: [{ text: '' }],
  level: COURSE_LEVEL_SUGGESTIONS[0],
  modulesCount: '',
  lessonsPerModule: '',
  withQuizzes: true,
});

/** The fields of the form that a path of the request (the schema's or the server's) is about. */
export function builderFieldOf(path: readonly PropertyKey[]): BuilderField | null {
  const [head, index] = path;
  if (head === 'goals') {
    const n = typeof index === 'number' ? index : typeof index === 'string' && /^\d+$/.test(index) ? Number(index) : null;
    return n === null ? 'goals' : `goals.${n}.text`;
  }
  return head === 'topic' || head === 'audience' || head === 'level' || head === 'modulesCount' || head === 'lessonsPerModule'
    ? head
    : null;
}

/** A count field: blank = automatic (undefined); anything but a whole number is refused with the field's range message. */
function readCount(raw: string, message: string): { value?: number; error?: string } {
  const text = raw.trim();
  if (text === '') return {};
  const n = Number(text);
  return Number.isInteger(n) ? { value: n } : { error: message };
}

/**
 * Turns the form into the request of POST /api/courses/generate, validated with the contract's own
 * schema, so the author sees the same Russian messages the server would answer, beside the fields.
 */
export function toGenerateRequest(form: BuilderForm): FormCheck<GenerateCourseRequest> {
  const modules = readCount(form.modulesCount, GENERATION_MSG.modulesRange);
  const lessons = readCount(form.lessonsPerModule, GENERATION_MSG.lessonsRange);
  const parsed = generateCourseSchema.safeParse({
    topic: form.topic,
    audience: form.audience,
    goals: form.goals.map((g) => g.text),
    level: form.level,
    modulesCount: modules.value,
    lessonsPerModule: lessons.value,
    withQuizzes: form.withQuizzes,
  });
  const errors = {
    ...(modules.error ? { modulesCount: modules.error } : {}),
    ...(lessons.error ? { lessonsPerModule: lessons.error } : {}),
    ...(parsed.success ? {} : messagesByField(parsed.error.issues, builderFieldOf)),
  };
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, values: parsed.data };
}

/**
 * The field to focus after a refused submit: the first in error in the order the form shows them;
 * a message on the goals' list puts the focus on its first goal.
 */
export function firstProblem(errors: FieldErrors<BuilderForm>): BuilderField | null {
  if (errors.topic) return 'topic';
  if (errors.audience) return 'audience';
  const goals = errors.goals as Record<string, unknown> | undefined;
  if (goals) {
    const index = Object.keys(goals)
      .filter((key) => /^\d+$/.test(key) && goals[key])
      .map(Number)
      .sort((a, b) => a - b)[0];
    return `goals.${index ?? 0}.text`;
  }
  if (errors.level) return 'level';
  if (errors.modulesCount) return 'modulesCount';
  if (errors.lessonsPerModule) return 'lessonsPerModule';
  return null;
}

/** Whether one more goal may be added to the `count` there are. */
export const canAddGoal = (count: number) => count < GENERATION_LIMITS.goals;

/* ------------------------------------------------------------ the draft built */

export interface DraftSummary {
  modules: number;
  lessons: number;
  quizzes: number;
}

/**
 * What was built, counted from the saved course: a quiz lives in a lesson of its own (a lesson whose
 * only blocks are quizzes), which counts as a quiz and not as a lesson.
 */
export function summarizeDraft(course: Pick<Course, 'modules'>): DraftSummary {
  let lessons = 0;
  const quizzes = new Set<string>();
  let unnamedQuizzes = 0;
  for (const module of course.modules) {
    for (const lesson of module.lessons) {
      const quizBlocks = lesson.blocks.filter((b) => b.type === 'quiz');
      for (const block of quizBlocks) {
        const id = block.type === 'quiz' ? block.content.quizId : null;
        if (id) quizzes.add(id);
        else unnamedQuizzes++;
      }
      if (quizBlocks.length === 0 || quizBlocks.length < lesson.blocks.length) lessons++;
    }
  }
  return { modules: course.modules.length, lessons, quizzes: quizzes.size + unnamedQuizzes };
}

export const modulesLabel = (count: number) => ruCount(count, { one: 'модуль', few: 'модуля', many: 'модулей' });
export const quizzesLabel = (count: number) => ruCount(count, { one: 'квиз', few: 'квиза', many: 'квизов' });

/** «Черновик готов: 5 модулей, 10 уроков, 5 квизов». */
export const draftReadyText = ({ modules, lessons, quizzes }: DraftSummary) =>
  `Черновик готов: ${modulesLabel(modules)}, ${lessonsLabel(lessons)}, ${quizzesLabel(quizzes)}`;

/* ------------------------------------------------------------------- progress */

/** A job that answers 404 while being polled was lost with the process that ran it. */
export const GENERATION_INTERRUPTED = 'Генерация прервана: сервис был перезапущен. Попробуйте снова.';

export const progressOf = (job: Pick<GenerationJob, 'progress' | 'stage'>) => ({
  value: Math.max(0, Math.min(100, Math.round(job.progress))),
  label: GENERATION_STAGE_LABELS[job.stage],
});

export type StageMark = 'done' | 'current' | 'todo';

/**
 * The stages listed under the bar, each marked. «Составляем квизы» is left out when no quizzes were
 * asked for (the server skips that stage then); «Готово» is the end, not a step to wait for.
 */
export function stageMarks(
  job: Pick<GenerationJob, 'stage' | 'status'>,
  withQuizzes: boolean,
): Array<{ stage: GenerationStage; label: string; mark: StageMark }> {
  const steps = GENERATION_STAGES.filter((s) => s !== 'done' && (withQuizzes || s !== 'quizzes'));
  const finished = job.status === 'succeeded' || job.stage === 'done';
  const at = GENERATION_STAGES.indexOf(job.stage);
  return steps.map((stage) => {
    const index = GENERATION_STAGES.indexOf(stage);
    const mark: StageMark = finished || index < at ? 'done' : index === at ? 'current' : 'todo';
    return { stage, label: GENERATION_STAGE_LABELS[stage], mark };
  });
}

/** The landing page's four steps (mf-landing's STEPS, word for word), shown at the top of the dialog. */
export const BUILDER_STEPS = ['Опишите тему', 'ИИ создаст структуру', 'Настройте контент', 'Запустите курс'] as const;

/* ---------------------------------------------------------------- the dialog's phases */

export type BuilderPhase =
  /** `error`: why the last start was refused, with the field the server named. */
  | { step: 'form'; error: Refusal | null }
  | { step: 'starting' }
  | { step: 'running'; job: GenerationJob }
  | { step: 'cancelling'; job: GenerationJob }
  | { step: 'cancelled'; message: string }
  | { step: 'failed'; message: string }
  /** `late`: «Отменить» came after the server had finished, so the draft exists and nothing opens by itself. */
  | { step: 'succeeded'; job: GenerationJob; courseId: string; late: boolean };

/** Where a job the server answered leaves the dialog. */
export function phaseOfJob(job: GenerationJob, late = false): BuilderPhase {
  switch (job.status) {
    case 'running':
      return { step: 'running', job };
    case 'succeeded':
      // A course job that succeeded always names its course; without one there is nothing to open.
      return job.courseId
        ? { step: 'succeeded', job, courseId: job.courseId, late }
        : { step: 'failed', message: GENERATION_MSG.providerFailed };
    case 'cancelled':
      return { step: 'cancelled', message: job.error ?? GENERATION_MSG.cancelled };
    case 'failed':
      return { step: 'failed', message: job.error ?? GENERATION_MSG.providerFailed };
  }
}

/** A call about the job that failed; 404 means the job was lost with the process that ran it. */
export const failureOf = (err: unknown): BuilderPhase => ({
  step: 'failed',
  message: err instanceof ApiError && err.status === 404 ? GENERATION_INTERRUPTED : errorMessage(err),
});

/** Which of the landing page's four steps the dialog is at (0-based): the form, the work, then the editor's part. */
export const stepIndexOf = (phase: BuilderPhase) =>
  phase.step === 'form' || phase.step === 'starting' ? 0 : phase.step === 'succeeded' ? 2 : 1;
