import { z } from 'zod';
import './zod-ru';
import { audienceSchema, addMonths, dayOf, daysBetween, type Audience } from './assignments';
import { entityIdField } from './content';
import { exportFields } from './exportQuery';
import { pagingFields, type Page } from './paging';

/**
 * Learning programs (docs/decisions/092): an onboarding or qualification track of several published
 * courses in ordered stages, each with its rule (all courses, or any N of them), its deadline (days
 * after the program was assigned, or after the previous stage) and an optional lock until the
 * previous stage is complete. One definition of the inputs, the answers, the texts and the stage
 * rule, which the progress service computes with and the screens show.
 */

/* ------------------------------------------------------------------ texts */

export const PROGRAM_MSG = {
  notFound: 'Программа не найдена',
  titleRequired: 'Введите название программы',
  titleTooLong: 'Название программы — не длиннее 200 символов',
  descriptionTooLong: 'Описание программы — не длиннее 5000 символов',
  stagesRequired: 'Добавьте в программу хотя бы один этап',
  tooManyStages: 'В программе не больше 20 этапов',
  stageTitleRequired: 'Введите название этапа',
  stageTitleTooLong: 'Название этапа — не длиннее 200 символов',
  stageKeyInvalid: 'Некорректный ключ этапа',
  stageKeyTwice: 'Ключи этапов повторяются',
  tooManyCourses: 'В этапе не больше 20 курсов',
  courseTwice: 'Курс уже есть в программе: один курс входит только в один этап',
  requiredInvalid: 'Сколько курсов этапа нужно пройти — целое число от 1 до числа курсов этапа',
  dueDaysInvalid: 'Срок этапа — целое число дней от 1 до 730',
  dueFromInvalid: 'Срок этапа считается от назначения программы или от завершения предыдущего этапа',
  firstStageAfterPrevious: 'У первого этапа нет предыдущего: его срок считается от назначения программы',
  firstStageLocked: 'Первый этап нельзя закрыть до завершения предыдущего: он открыт сразу',
  courseNotFound: 'Курс программы не найден',
  courseNotPublished: (title: string) => `Курс «${title}» не опубликован: в программу входят только опубликованные курсы`,
  stageEmpty: (title: string) => `В этапе «${title}» нет курсов: добавьте курс, чтобы назначить программу`,
  archived: 'Программа в архиве: верните её из архива, чтобы назначить или изменить',
  notYours: 'Изменять программу могут её автор, соавторы и администратор',
  coAuthorsOwnerOnly: 'Соавторов программы назначает её автор или администратор',
  coAuthorNotCurator: 'Соавтором программы может быть только куратор',
  tooManyCoAuthors: 'У программы не больше 20 соавторов',
  templateNotFound: 'Шаблон программы не найден',
  assignmentNotFound: 'Назначение программы не найдено',
  assignmentNotYours: 'Изменять назначение программы может его автор или администратор',
  personNotInAudience: 'Этот человек не входит в назначение программы',
  stageNotFound: 'Этап программы не найден',
  dueDateInvalid: 'Укажите срок в формате ГГГГ-ММ-ДД',
  dueDatePast: 'Срок не может быть раньше сегодняшнего дня',
  recurrenceInvalid: 'Периодичность — целое число месяцев от 1 до 120',
  messageTooLong: 'Сообщение не длиннее 2000 символов',
  /** The refusal of a locked course's quiz or lesson: the stage that opens it, in which program. */
  locked: (program: string, stage: string, opensAfter: string) =>
    `Этап «${stage}» программы «${program}» закрыт до завершения этапа «${opensAfter}»`,
} as const;

/* ------------------------------------------------------------------ limits */

export const MAX_PROGRAM_STAGES = 20;
export const MAX_STAGE_COURSES = 20;
export const MAX_STAGE_DUE_DAYS = 730;
export const MAX_PROGRAM_CO_AUTHORS = 20;

/* ------------------------------------------------------------------ stage rule */

/** What a stage's deadline is counted from. */
export const STAGE_DUE_FROM = ['assigned', 'previous'] as const;
export type StageDueFrom = (typeof STAGE_DUE_FROM)[number];

export const STAGE_DUE_FROM_LABELS: Record<StageDueFrom, string> = {
  assigned: 'от назначения программы',
  previous: 'от завершения предыдущего этапа',
};

/** A person's status in one stage. */
export const STAGE_STATUSES = ['completed', 'in_progress', 'locked', 'overdue'] as const;
export type StageStatus = (typeof STAGE_STATUSES)[number];

export const STAGE_STATUS_LABELS: Record<StageStatus, string> = {
  completed: 'пройден',
  in_progress: 'в процессе',
  locked: 'закрыт',
  overdue: 'просрочен',
};

/** A person's status in a whole program. */
export const PROGRAM_PERSON_STATUSES = ['completed', 'in_progress', 'overdue'] as const;
export type ProgramPersonStatus = (typeof PROGRAM_PERSON_STATUSES)[number];

export const PROGRAM_PERSON_STATUS_LABELS: Record<ProgramPersonStatus, string> = {
  completed: 'программа пройдена',
  in_progress: 'в процессе',
  overdue: 'есть просрочка',
};

export const PROGRAM_STATUSES = ['active', 'archived'] as const;
export type ProgramStatus = (typeof PROGRAM_STATUSES)[number];

/* ------------------------------------------------------------------ inputs */

/** A stage's key: stable across edits (a person's extension names it); the editor makes it, or the server. */
const stageKeySchema = z
  .string({ error: PROGRAM_MSG.stageKeyInvalid })
  .regex(/^[A-Za-z0-9_-]{1,40}$/, PROGRAM_MSG.stageKeyInvalid);

export const programStageSchema = z
  .object({
    key: stageKeySchema.optional(),
    title: z
      .string({ error: PROGRAM_MSG.stageTitleRequired })
      .trim()
      .min(1, PROGRAM_MSG.stageTitleRequired)
      .max(200, PROGRAM_MSG.stageTitleTooLong),
    /** The stage's courses, in the order the learner sees them. */
    courseIds: z.array(entityIdField('courseId')).max(MAX_STAGE_COURSES, PROGRAM_MSG.tooManyCourses).default([]),
    /** How many of its courses complete the stage: null for all of them, N for any N. */
    required: z
      .number({ error: PROGRAM_MSG.requiredInvalid })
      .int(PROGRAM_MSG.requiredInvalid)
      .min(1, PROGRAM_MSG.requiredInvalid)
      .nullable()
      .default(null),
    dueDays: z
      .number({ error: PROGRAM_MSG.dueDaysInvalid })
      .int(PROGRAM_MSG.dueDaysInvalid)
      .min(1, PROGRAM_MSG.dueDaysInvalid)
      .max(MAX_STAGE_DUE_DAYS, PROGRAM_MSG.dueDaysInvalid),
    dueFrom: z.enum(STAGE_DUE_FROM, { error: PROGRAM_MSG.dueFromInvalid }).default('assigned'),
    /** Closed until the previous stage is complete: its quizzes cannot be started, its lessons not completed. */
    locked: z.boolean().default(false),
  })
  .refine((s) => s.required === null || s.required <= Math.max(s.courseIds.length, 1), {
    message: PROGRAM_MSG.requiredInvalid,
    path: ['required'],
  });
export type ProgramStageInput = z.input<typeof programStageSchema>;

export const programInputSchema = z
  .object({
    title: z
      .string({ error: PROGRAM_MSG.titleRequired })
      .trim()
      .min(1, PROGRAM_MSG.titleRequired)
      .max(200, PROGRAM_MSG.titleTooLong),
    description: z.string().trim().max(5000, PROGRAM_MSG.descriptionTooLong).default(''),
    /** A certificate of its own, issued when every stage is complete. */
    certificate: z.boolean().default(false),
    stages: z
      .array(programStageSchema, { error: PROGRAM_MSG.stagesRequired })
      .min(1, PROGRAM_MSG.stagesRequired)
      .max(MAX_PROGRAM_STAGES, PROGRAM_MSG.tooManyStages),
    /** Curators who may change it besides its author (only the author or an ADMIN changes this list). */
    coAuthorIds: z.array(entityIdField('coAuthorId')).max(MAX_PROGRAM_CO_AUTHORS, PROGRAM_MSG.tooManyCoAuthors).optional(),
  })
  .superRefine((p, ctx) => {
    const first = p.stages[0];
    if (first?.dueFrom === 'previous') {
      ctx.addIssue({ code: 'custom', message: PROGRAM_MSG.firstStageAfterPrevious, path: ['stages', 0, 'dueFrom'] });
    }
    if (first?.locked) ctx.addIssue({ code: 'custom', message: PROGRAM_MSG.firstStageLocked, path: ['stages', 0, 'locked'] });
    const courses = p.stages.flatMap((s) => s.courseIds);
    if (new Set(courses).size !== courses.length)
      ctx.addIssue({ code: 'custom', message: PROGRAM_MSG.courseTwice, path: ['stages'] });
    const keys = p.stages.map((s) => s.key).filter(Boolean);
    if (new Set(keys).size !== keys.length)
      ctx.addIssue({ code: 'custom', message: PROGRAM_MSG.stageKeyTwice, path: ['stages'] });
  });
export type ProgramInput = z.input<typeof programInputSchema>;

export const programListQuerySchema = z.object({
  ...pagingFields(20),
  search: z.string().trim().max(200).optional(),
  status: z.enum(PROGRAM_STATUSES, { error: 'Неизвестный статус программы' }).default('active'),
});
export type ProgramListQuery = z.input<typeof programListQuerySchema>;

const recurrenceMonthsSchema = z
  .number({ error: PROGRAM_MSG.recurrenceInvalid })
  .int(PROGRAM_MSG.recurrenceInvalid)
  .min(1, PROGRAM_MSG.recurrenceInvalid)
  .max(120, PROGRAM_MSG.recurrenceInvalid)
  .nullable()
  .default(null);

/** A program assigned as a course is: to people, a department, a role or everyone; it starts the day it is made. */
export const programAssignmentCreateSchema = z.object({
  programId: entityIdField('programId'),
  audience: audienceSchema,
  mandatory: z.boolean().default(true),
  /** Begun again this many months after each completion of the whole program; null for once. */
  recurrenceMonths: recurrenceMonthsSchema,
  message: z.string().trim().max(2000, PROGRAM_MSG.messageTooLong).default(''),
});
export type ProgramAssignmentCreateInput = z.input<typeof programAssignmentCreateSchema>;

/** A person's own deadline for one stage (an extension for them alone). */
export const programExtendSchema = z.object({
  userId: entityIdField('userId'),
  stageKey: stageKeySchema,
  dueDate: z.iso.date({ error: PROGRAM_MSG.dueDateInvalid }),
});
export type ProgramExtendInput = z.infer<typeof programExtendSchema>;

export const programAssignmentListQuerySchema = z.object({
  ...pagingFields(20),
  programId: entityIdField('programId').optional(),
});
export type ProgramAssignmentListQuery = z.input<typeof programAssignmentListQuerySchema>;

/** A program report's people: a page, filtered by department, status and the stage they are on. */
export const programPeopleQuerySchema = z.object({
  ...pagingFields(50),
  department: z.string().trim().min(1).max(120).optional(),
  status: z.enum(PROGRAM_PERSON_STATUSES, { error: 'Неизвестный статус' }).optional(),
  stageKey: stageKeySchema.optional(),
});
export type ProgramPeopleQuery = z.input<typeof programPeopleQuerySchema>;

export const programReportQuerySchema = programPeopleQuerySchema.pick({ department: true });
export type ProgramReportQuery = z.input<typeof programReportQuerySchema>;

export const programExportQuerySchema = programPeopleQuerySchema.omit({ page: true, limit: true }).extend(exportFields);

export const myProgramsQuerySchema = z.object({ ...pagingFields(20) });

/* ------------------------------------------------------------------ answers */

export interface ProgramCourse {
  id: string;
  title: string;
  /** Still published: a course unpublished after it joined the program shows so in the editor. */
  published: boolean;
}

export interface ProgramStage {
  key: string;
  title: string;
  courses: ProgramCourse[];
  /** null: all of its courses; N: any N of them. */
  required: number | null;
  dueDays: number;
  dueFrom: StageDueFrom;
  locked: boolean;
}

export interface Program {
  id: string;
  title: string;
  description: string;
  certificate: boolean;
  status: ProgramStatus;
  stages: ProgramStage[];
  owner: { id: string; fullName: string };
  coAuthorIds: string[];
  /** The co-authors with their names, in the order of `coAuthorIds` (a name is '' if the account is gone). */
  coAuthors: Array<{ id: string; fullName: string }>;
  /** Whether the person asking may change it (its author, a co-author, an ADMIN). */
  canEdit: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface ProgramSummary {
  id: string;
  title: string;
  status: ProgramStatus;
  stageCount: number;
  courseCount: number;
  owner: { id: string; fullName: string };
  canEdit: boolean;
  updatedAt: string;
}

/** A ready structure to copy: stages and deadlines, no courses. */
export interface ProgramTemplate {
  key: string;
  title: string;
  description: string;
  stages: Array<Omit<ProgramStage, 'courses'>>;
}

export interface ProgramAssignment {
  id: string;
  programId: string;
  programTitle: string;
  audience: Audience;
  mandatory: boolean;
  recurrenceMonths: number | null;
  message: string;
  /** The day it was assigned: stage deadlines «от назначения» count from it. */
  startDate: string;
  createdBy: { id: string; fullName: string };
  createdAt: string;
}

export interface StageCourseProgress {
  courseId: string;
  title: string;
  completed: boolean;
  /** Percent of the course's lessons completed (0–100). */
  percent: number;
}

export interface StageProgress {
  key: string;
  title: string;
  status: StageStatus;
  /** The last day of the stage (inclusive); null while it counts from a previous stage not yet complete. */
  dueDate: string | null;
  /** Days until the due day (0 on it, negative once overdue); null without a due day or once complete. */
  daysLeft: number | null;
  /** The stage's deadline in days, and what it counts from (a stage after an open one shows «N дней после …»). */
  dueDays: number;
  dueFrom: StageDueFrom;
  completedAt: string | null;
  /** For a locked stage: the stage whose completion opens it. */
  opensAfter: string | null;
  /** Courses needed to complete it, and completed so far. */
  required: number;
  done: number;
  courses: StageCourseProgress[];
}

/** One of a learner's programs, stage by stage (the program page; a curator's drill-down). */
export interface MyProgram {
  assignmentId: string;
  programId: string;
  title: string;
  description: string;
  status: ProgramPersonStatus;
  mandatory: boolean;
  message: string;
  stages: StageProgress[];
  completedAt: string | null;
  /** The program's certificate, once issued. */
  certificateNumber: string | null;
}

/** A line of «Мои программы». */
export interface MyProgramSummary {
  assignmentId: string;
  programId: string;
  title: string;
  status: ProgramPersonStatus;
  stageCount: number;
  stagesCompleted: number;
  /** The first stage not yet complete (null once all are). */
  currentStage: { key: string; title: string; status: StageStatus; dueDate: string | null; daysLeft: number | null } | null;
}

/** One person of a program assignment (the report's list). */
export interface ProgramPerson {
  userId: string;
  fullName: string;
  email: string;
  department: string;
  status: ProgramPersonStatus;
  stagesCompleted: number;
  /** The stage they are on (null once all are complete). */
  currentStage: { key: string; title: string; status: StageStatus; dueDate: string | null } | null;
  completedAt: string | null;
  certificateNumber: string | null;
}

export interface ProgramStageReport {
  key: string;
  title: string;
  /** People whose first incomplete stage is this one. */
  current: number;
  /** People who have completed it. */
  completed: number;
  /** People on it past its deadline. */
  overdue: number;
}

/** GET /program-assignments/{id}/report: people per stage, overdue, percent complete. */
export interface ProgramReport {
  assignmentId: string;
  programId: string;
  title: string;
  assigned: number;
  completed: number;
  overdue: number;
  /** Completed of assigned, rounded; 0 when nobody is assigned. */
  percent: number;
  stages: ProgramStageReport[];
}

export interface ProgramPersonDetail extends MyProgram {
  person: { id: string; fullName: string; email: string; department: string };
}

export type ProgramPage = Page<ProgramSummary>;
export type ProgramAssignmentPage = Page<ProgramAssignment>;
export type MyProgramPage = Page<MyProgramSummary>;
export type ProgramPeoplePage = Page<ProgramPerson>;

/* ------------------------------------------------------------------ the stage rule */

export interface StageRuleStage {
  key: string;
  title: string;
  courseIds: string[];
  required: number | null;
  dueDays: number;
  dueFrom: StageDueFrom;
  locked: boolean;
}

export interface StageRuleInput {
  stages: StageRuleStage[];
  /** The day the person's current cycle began (the assignment's day, or a recurrence's). */
  startDate: string;
  /** When the person completed each course (counted within its validity; absent if not). */
  courseDoneAt: ReadonlyMap<string, Date>;
  /** Courses the person has begun (a lesson completed or a quiz tried). */
  courseStarted?: ReadonlySet<string>;
  /** The person's own deadline per stage key. */
  extensions?: Readonly<Record<string, string>>;
  now: Date;
}

export interface StageState {
  key: string;
  status: StageStatus;
  dueDate: string | null;
  daysLeft: number | null;
  completedAt: Date | null;
  opensAfter: string | null;
  required: number;
  done: number;
}

const addDays = (day: string, days: number): string => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/**
 * The stage rule, pure: which stages a person has completed, when, which is locked, and each one's
 * deadline. A stage is complete once `required` of its courses (all by default) are; never before the
 * stage before it (a course finished early counts, and the stage completes with the previous one). Its
 * deadline is `dueDays` after the start, or after the previous stage's completion (none yet while that
 * is open); a person's extension replaces it. A locked stage is closed while the previous one is open.
 */
export function stageStates({ stages, startDate, courseDoneAt, extensions = {}, now }: StageRuleInput): StageState[] {
  const today = dayOf(now);
  const states: StageState[] = [];
  let previous = null as { completedAt: Date | null; title: string } | null;
  for (const stage of stages) {
    const required = Math.min(stage.required ?? stage.courseIds.length, stage.courseIds.length);
    const times = stage.courseIds
      .map((id) => courseDoneAt.get(id))
      .filter((d): d is Date => !!d)
      .map((d) => d.getTime())
      .sort((a, b) => a - b);
    const done = times.length;
    const previousOpen = previous !== null && previous.completedAt === null;
    let completedAt: Date | null = null;
    if (required > 0 && done >= required && !previousOpen) {
      completedAt = new Date(Math.max(times[required - 1], previous?.completedAt?.getTime() ?? 0));
    }
    const base =
      stage.dueFrom === 'previous' && previous ? (previous.completedAt ? dayOf(previous.completedAt) : null) : startDate;
    const dueDate = extensions[stage.key] ?? (base ? addDays(base, stage.dueDays) : null);
    const lockedNow = stage.locked && previousOpen;
    let status: StageStatus;
    if (completedAt) status = 'completed';
    else if (lockedNow) status = 'locked';
    else if (dueDate && dueDate < today) status = 'overdue';
    else status = 'in_progress';
    states.push({
      key: stage.key,
      status,
      dueDate,
      daysLeft: completedAt || !dueDate ? null : daysBetween(today, dueDate),
      completedAt,
      opensAfter: lockedNow && previous ? previous.title : null,
      required,
      done: Math.min(done, stage.courseIds.length),
    });
    previous = { completedAt, title: stage.title };
  }
  return states;
}

/** A person's status in the whole program from their stages' states. */
export function programPersonStatus(states: readonly StageState[]): ProgramPersonStatus {
  if (states.length && states.every((s) => s.status === 'completed')) return 'completed';
  return states.some((s) => s.status === 'overdue') ? 'overdue' : 'in_progress';
}

/** When the whole program was completed: the last stage's completion, once every stage is complete. */
export const programCompletedAt = (states: readonly StageState[]): Date | null =>
  states.length && states.every((s) => s.completedAt) ? states[states.length - 1].completedAt : null;

/** The first day of a recurring program's next cycle: `months` after the day it was completed. */
export const nextCycleStart = (completedAt: Date, months: number): string => addMonths(dayOf(completedAt), months);

/** The columns of a program report's download (CSV and XLSX). */
export const PROGRAM_EXPORT_HEADER = [
  'ФИО',
  'Email',
  'Подразделение',
  'Статус',
  'Текущий этап',
  'Статус этапа',
  'Срок этапа',
  'Пройдено этапов',
  'Программа пройдена',
  'Сертификат',
] as const;
