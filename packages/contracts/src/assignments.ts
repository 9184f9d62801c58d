import { z } from 'zod';
import './zod-ru';
import { ASSIGNMENT_STATUSES, type AssignmentStatus } from './assignmentRules';
import { entityIdField } from './content';
import { exportFields } from './exportQuery';
import { pagingFields, type Page } from './paging';
import { STUDY_ROLES } from './progress';
import { ROLES } from './roles';

/**
 * Training assignments (docs/decisions/075): a published course, an audience, a due date, a mandatory flag,
 * an optional recurrence and a message; each person's status in it. One definition of the inputs,
 * the answers, the texts and the status rule, which the progress service computes with.
 */

/* ------------------------------------------------------------------ texts */

export const ASSIGNMENT_MSG = {
  notFound: 'Назначение не найдено',
  courseNotPublished: 'Назначить можно только опубликованный курс',
  dueDateInvalid: 'Укажите срок в формате ГГГГ-ММ-ДД',
  dueDatePast: 'Срок не может быть раньше сегодняшнего дня',
  audienceInvalid: 'Выберите, кому назначить курс: людей, подразделение, роль или всех',
  usersRequired: 'Выберите хотя бы одного человека',
  tooManyUsers: 'В одном назначении не больше 500 человек — назначьте подразделению или роли',
  departmentRequired: 'Укажите подразделение',
  roleNotLearner: 'Назначить можно только обучающимся ролям: клиентам, кандидатам и менеджерам',
  recurrenceInvalid: 'Периодичность — целое число месяцев от 1 до 120',
  messageTooLong: 'Сообщение не длиннее 2000 символов',
  personNotInAudience: 'Этот человек не входит в назначение',
  notYours: 'Изменять назначение может его автор или администратор',
  personNotFound: 'Обучающийся не найден',
} as const;

/* ------------------------------------------------------------------ audience */

/** The most people an assignment names one by one (a larger group is a department or a role). */
export const MAX_ASSIGNED_USERS = 500;

const learnerRole = z
  .enum(ROLES, { error: ASSIGNMENT_MSG.roleNotLearner })
  .refine((r) => STUDY_ROLES.includes(r), ASSIGNMENT_MSG.roleNotLearner);

export const audienceSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('users'),
      userIds: z
        .array(entityIdField('userId'), { error: ASSIGNMENT_MSG.usersRequired })
        .min(1, ASSIGNMENT_MSG.usersRequired)
        .max(MAX_ASSIGNED_USERS, ASSIGNMENT_MSG.tooManyUsers),
    }),
    z.object({
      kind: z.literal('department'),
      department: z
        .string({ error: ASSIGNMENT_MSG.departmentRequired })
        .trim()
        .min(1, ASSIGNMENT_MSG.departmentRequired)
        .max(120),
    }),
    z.object({ kind: z.literal('role'), role: learnerRole }),
    z.object({ kind: z.literal('all') }),
  ],
  { error: ASSIGNMENT_MSG.audienceInvalid },
);
export type Audience = z.infer<typeof audienceSchema>;

/* ------------------------------------------------------------------ dates */

/** Days are counted on the calendar of this zone (the portal's people work in Russia). */
export const ASSIGNMENT_TIME_ZONE = 'Europe/Moscow';

const DAY_MS = 86_400_000;
const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: ASSIGNMENT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar day (YYYY-MM-DD) a moment falls on in ASSIGNMENT_TIME_ZONE. */
export const dayOf = (at: Date): string => dayFormat.format(at);

const dayNumber = (day: string): number => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** Whole days from `from` to `to` (both YYYY-MM-DD); negative when `to` is earlier. */
export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

/** The day `months` calendar months after `day` (the 31st becomes the month's last day). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

export const dueDateSchema = z.iso.date({ error: ASSIGNMENT_MSG.dueDateInvalid });

/* ------------------------------------------------------------------ inputs */

const assignmentFields = {
  audience: audienceSchema,
  /** The last day to complete it (inclusive), YYYY-MM-DD. */
  dueDate: dueDateSchema,
  mandatory: z.boolean().default(true),
  /** Re-assigned this many months after each completion; null for once. */
  recurrenceMonths: z
    .number({ error: ASSIGNMENT_MSG.recurrenceInvalid })
    .int(ASSIGNMENT_MSG.recurrenceInvalid)
    .min(1, ASSIGNMENT_MSG.recurrenceInvalid)
    .max(120, ASSIGNMENT_MSG.recurrenceInvalid)
    .nullable()
    .default(null),
  message: z.string().trim().max(2000, ASSIGNMENT_MSG.messageTooLong).default(''),
};

export const assignmentCreateSchema = z.object({ courseId: entityIdField('courseId'), ...assignmentFields });
export type AssignmentCreateInput = z.input<typeof assignmentCreateSchema>;

/** An edit changes everything but the course (another course is another assignment). */
export const assignmentUpdateSchema = z.object({
  ...assignmentFields,
  courseId: z.undefined({ error: 'Курс назначения не меняется — создайте новое назначение' }).optional(),
});
export type AssignmentUpdateInput = z.input<typeof assignmentUpdateSchema>;

/** A new due date for everyone in it, or for one person (`userId`). */
export const assignmentExtendSchema = z.object({ dueDate: dueDateSchema, userId: entityIdField('userId').optional() });
export type AssignmentExtendInput = z.infer<typeof assignmentExtendSchema>;

/* ------------------------------------------------------------------ status */

/* ------------------------------------------------------------------ queries */

export const assignmentListQuerySchema = z.object({ ...pagingFields(20) });
/**
 * The staff list's filters: a course, and a period the due day falls in (either end may be left
 * open; both days inclusive).
 */
export const assignmentStaffQuerySchema = assignmentListQuerySchema
  .extend({
    courseId: entityIdField('courseId').optional(),
    dueFrom: z.iso.date({ error: 'Начало периода — дата в формате ГГГГ-ММ-ДД' }).optional(),
    dueTo: z.iso.date({ error: 'Конец периода — дата в формате ГГГГ-ММ-ДД' }).optional(),
  })
  .refine((q) => !q.dueFrom || !q.dueTo || q.dueFrom <= q.dueTo, {
    message: 'Начало периода не может быть позже конца',
    path: ['dueTo'],
  });
export type AssignmentStaffQuery = z.input<typeof assignmentStaffQuerySchema>;
/** An assignment's people: a page, with their status and department as filters. */
export const assignmentPeopleQuerySchema = z.object({
  ...pagingFields(50),
  status: z.enum(ASSIGNMENT_STATUSES, { error: 'Неизвестный статус' }).optional(),
  department: z.string().trim().min(1).max(120).optional(),
});
export type AssignmentPeopleQuery = z.input<typeof assignmentPeopleQuerySchema>;

/** The report's download: the people filters, every row, CSV or XLSX. */
export const assignmentExportQuerySchema = assignmentPeopleQuerySchema.omit({ page: true, limit: true }).extend(exportFields);

/* ------------------------------------------------------------------ status rule */

export interface PersonStatusInput {
  /** The person's due day (an extension for them, or the assignment's). */
  dueDate: string;
  recurrenceMonths: number | null;
  /** When every lesson was completed and every quiz passed (the latest such moment when it recurs). */
  completedAt: Date | null;
  /** A lesson completed or a quiz attempted. */
  started: boolean;
  now: Date;
}

export interface PersonStatus {
  status: AssignmentStatus;
  /** The day it is due now: for a recurring one completed before, the next re-training's day. */
  dueDate: string;
  /** Days until the due day (0 on it, negative once overdue). */
  daysLeft: number;
  completedAt: string | null;
}

/**
 * The status rule. Completed (every lesson, every quiz passed) is «завершён», kept with its date,
 * also when it came after the due day. A recurring assignment is due again `recurrenceMonths`
 * after the last completion: until that day it stays «завершён» (with the next due day), then it
 * is «просрочен» until completed again. Otherwise: past the due day «просрочен», else «в процессе»
 * once started, else «не начат».
 */
export function personStatus({ dueDate, recurrenceMonths, completedAt, started, now }: PersonStatusInput): PersonStatus {
  const today = dayOf(now);
  if (completedAt) {
    const done = completedAt.toISOString();
    if (!recurrenceMonths) return { status: 'completed', dueDate, daysLeft: daysBetween(today, dueDate), completedAt: done };
    const next = addMonths(dayOf(completedAt), recurrenceMonths);
    const daysLeft = daysBetween(today, next);
    return daysLeft > 0
      ? { status: 'completed', dueDate: next, daysLeft, completedAt: done }
      : { status: 'overdue', dueDate: next, daysLeft, completedAt: done };
  }
  const daysLeft = daysBetween(today, dueDate);
  const status: AssignmentStatus = daysLeft < 0 ? 'overdue' : started ? 'in_progress' : 'not_started';
  return { status, dueDate, daysLeft, completedAt: null };
}

/* ------------------------------------------------------------------ answers */

export interface Assignment {
  id: string;
  courseId: string;
  courseTitle: string;
  /** The course's duration (hours), as its card says. */
  courseHours: number;
  audience: Audience;
  dueDate: string;
  mandatory: boolean;
  recurrenceMonths: number | null;
  message: string;
  createdBy: { id: string; fullName: string };
  createdAt: string;
  updatedAt: string;
}

/** One of the learner's own assignments, with their status in it. */
export interface MyAssignment extends PersonStatus {
  assignmentId: string;
  courseId: string;
  courseTitle: string;
  mandatory: boolean;
  message: string;
  recurrenceMonths: number | null;
}

/** One person of an assignment's audience, with their status (the curator's view). */
export interface AssignmentPerson extends PersonStatus {
  userId: string;
  fullName: string;
  email: string;
  department: string;
  /** The number of the person's latest certificate for the course, once issued. */
  certificateNumber: string | null;
}

/** GET /assignments/{id}/report: how far its people are, as of now. */
export interface AssignmentReport {
  assignmentId: string;
  assigned: number;
  completed: number;
  inProgress: number;
  notStarted: number;
  overdue: number;
  /** Completed of assigned, rounded; 0 when nobody is assigned. */
  percent: number;
  /** Completions per day (YYYY-MM-DD on the Moscow calendar), oldest first: the chart. */
  completedByDay: Array<{ date: string; count: number }>;
}

/** GET /assignments/person/{userId}: one person's assignments with their status (staff's drill-down). */
export interface PersonAssignments extends Page<MyAssignment> {
  person: { id: string; fullName: string; email: string; department: string };
}
