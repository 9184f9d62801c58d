import { createHash } from 'node:crypto';
import { isValidObjectId } from 'mongoose';
import {
  ASSIGNMENT_MSG,
  AUDIENCE_LABELS,
  EXPORT_MAX_ROWS,
  ROLE_LABELS,
  dayOf,
  isFinalPass,
  personStatus,
  type Audience,
  type AssignmentCreateInput,
  type AssignmentReport,
  type AssignmentStatus,
  type AssignmentUpdateInput,
  type CourseOutline,
  type PersonStatus,
  type Role,
} from '@portal/contracts';
import { badRequest, clock, notFound, op, serialised, type Principal } from '@portal/service-kit';
import { endsAudience, type AudiencePage, type PeopleClient } from '../clients/people';
import type { AssignmentDoc } from '../models/assignment';
import type { ProgressModels } from '../models';
import type { ProgressDeps } from './deps';

type Fields = Required<Pick<AssignmentUpdateInput, 'audience' | 'dueDate'>> & {
  mandatory: boolean;
  recurrenceMonths: number | null;
  message: string;
};

/** The course's lessons a learner sees, and those holding a quiz: what completing it means. */
export function courseSnapshot(course: CourseOutline) {
  const lessons = course.modules
    .filter((m) => m.status !== 'hidden')
    .flatMap((m) => m.lessons.filter((l) => l.status !== 'hidden'));
  return {
    courseId: course.id,
    courseTitle: course.title,
    courseHours: course.duration,
    lessonIds: lessons.map((l) => l.id),
    quizLessonIds: lessons.filter((l) => l.hasQuiz).map((l) => l.id),
  };
}

const audienceFields = (audience: Audience) => ({
  audienceKind: audience.kind,
  audienceUserIds: audience.kind === 'users' ? [...new Set(audience.userIds)] : [],
  audienceDepartment: audience.kind === 'department' ? audience.department : '',
  audienceRole: audience.kind === 'role' ? audience.role : null,
});

export const audienceOf = (
  doc: Pick<AssignmentDoc, 'audienceKind' | 'audienceUserIds' | 'audienceDepartment' | 'audienceRole'>,
): Audience =>
  doc.audienceKind === 'users'
    ? { kind: 'users', userIds: doc.audienceUserIds }
    : doc.audienceKind === 'department'
      ? { kind: 'department', department: doc.audienceDepartment }
      : doc.audienceKind === 'role'
        ? { kind: 'role', role: doc.audienceRole as Role }
        : { kind: 'all' };

/** «Подразделение «Продажи»», «Роль «Клиент»», «Выбранные сотрудники: 3», «Все обучающиеся». */
export function describeAudience(audience: Audience): string {
  if (audience.kind === 'users') return `${AUDIENCE_LABELS.users}: ${audience.userIds.length}`;
  if (audience.kind === 'department') return `${AUDIENCE_LABELS.department} «${audience.department}»`;
  if (audience.kind === 'role') return `${AUDIENCE_LABELS.role} «${ROLE_LABELS[audience.role]}»`;
  return AUDIENCE_LABELS.all;
}

function assertDueDate(dueDate: string): void {
  if (dueDate < dayOf(clock.now())) throw badRequest(ASSIGNMENT_MSG.dueDatePast, 'dueDate');
}

/** What a create and an edit both write: the course as it is now, the audience and the form's fields. */
const assignmentFields = (course: CourseOutline, input: Fields) => ({
  ...courseSnapshot(course),
  ...audienceFields(input.audience),
  dueDate: input.dueDate,
  mandatory: input.mandatory,
  recurrenceMonths: input.recurrenceMonths,
  message: input.message,
});

/** What makes two assignments the same: the course, the audience rule (people in any order) and the due day. */
function sameAssignment(courseId: string, input: Fields) {
  const audience = audienceFields(input.audience);
  return {
    courseId,
    dueDate: input.dueDate,
    audienceKind: audience.audienceKind,
    audienceDepartment: audience.audienceDepartment,
    audienceRole: audience.audienceRole,
    audienceUserIds: [...audience.audienceUserIds].sort(),
  };
}

/**
 * Assigns a course, or answers the identical assignment that already exists (the same course, the
 * same audience, the same due day: `created: false`), so that a double click, a retry or 20 parallel
 * requests leave one assignment and the learner one line. Creates of one identity take turns through
 * a store claim (FerretDB has no transactions, and two documents without a shared unique field do not
 * collide in its indexes).
 */
export async function createAssignment(
  deps: ProgressDeps,
  actor: Principal,
  course: CourseOutline,
  input: Fields & Pick<AssignmentCreateInput, 'courseId'>,
): Promise<{ doc: AssignmentDoc; created: boolean }> {
  if (course.status !== 'published') throw badRequest(ASSIGNMENT_MSG.courseNotPublished, 'courseId');
  assertDueDate(input.dueDate);
  const same = sameAssignment(course.id, input);
  const identity = createHash('sha256').update(JSON.stringify(same)).digest('hex');
  return serialised(deps.models.assignments.db, `assignments:create:${identity}`, async () => {
    const { audienceUserIds, ...rest } = same;
    const candidates = await deps.models.assignments
      .find({ ...rest, audienceUserIds: op({ $size: audienceUserIds.length }) })
      .sort({ _id: 1 })
      .lean<AssignmentDoc[]>();
    const existing = candidates.find((a) => [...a.audienceUserIds].sort().join() === audienceUserIds.join());
    if (existing) return { doc: existing, created: false };
    const created = await deps.models.assignments.create({
      ...assignmentFields(course, input),
      createdBy: { id: actor.id, fullName: actor.fullName },
    });
    const doc = created.toObject();
    deps.audit.publish({
      action: 'create',
      entity: 'assignment',
      entityId: String(doc._id),
      details: `Курс «${doc.courseTitle}» назначен: ${describeAudience(input.audience)}, срок ${doc.dueDate}`,
      actor,
    });
    return { doc, created: true };
  });
}

export async function loadAssignment(models: ProgressModels, id: string): Promise<AssignmentDoc> {
  const doc = isValidObjectId(id) ? await models.assignments.findById(id).lean<AssignmentDoc>() : null;
  if (!doc) throw notFound(ASSIGNMENT_MSG.notFound);
  return doc;
}

/** An edit: everything but the course; the course's lessons are read again (it may have changed). */
export async function updateAssignment(
  deps: ProgressDeps,
  actor: Principal,
  before: AssignmentDoc,
  course: CourseOutline,
  input: Fields,
): Promise<AssignmentDoc> {
  if (input.dueDate !== before.dueDate) assertDueDate(input.dueDate);
  await deps.models.assignments.updateOne({ _id: before._id }, { $set: assignmentFields(course, input) });
  const after = await loadAssignment(deps.models, String(before._id));
  deps.audit.publish({
    action: 'update',
    entity: 'assignment',
    entityId: String(after._id),
    details: `Изменено назначение курса «${after.courseTitle}»: ${describeAudience(input.audience)}, срок ${after.dueDate}`,
    actor,
  });
  return after;
}

export async function deleteAssignment(deps: ProgressDeps, actor: Principal, doc: AssignmentDoc): Promise<void> {
  await Promise.all([
    deps.models.assignments.deleteOne({ _id: doc._id }),
    deps.models.assignmentExtensions.deleteMany({ assignmentId: String(doc._id) }),
  ]);
  deps.audit.publish({
    action: 'delete',
    entity: 'assignment',
    entityId: String(doc._id),
    details: `Удалено назначение курса «${doc.courseTitle}»`,
    actor,
  });
}

/**
 * One page of the people an assignment reaches, as the auth service knows them now (a person who
 * joined the department yesterday is in it; named people who left are not), optionally only those
 * of one department.
 */
export async function audiencePage(
  people: PeopleClient,
  doc: Pick<AssignmentDoc, 'audienceKind' | 'audienceUserIds' | 'audienceDepartment' | 'audienceRole'>,
  page: number,
  limit: number,
  onlyIds?: string[],
  department?: string,
): Promise<AudiencePage> {
  if (doc.audienceKind === 'department' && department && department !== doc.audienceDepartment) return { data: [], total: 0 };
  if (doc.audienceKind === 'users') {
    const named = onlyIds ? doc.audienceUserIds.filter((id) => onlyIds.includes(id)) : doc.audienceUserIds;
    if (department) {
      // Named people of one department: asked of the auth service a hundred ids at a time.
      return namedOfDepartment(people, named, department, page, limit);
    }
    const ids = named.slice((page - 1) * limit, page * limit);
    if (!ids.length) return { data: [], total: named.length };
    const found = await people.audience({ ids, page: 1, limit: ids.length });
    return { data: found.data, total: named.length };
  }
  return people.audience({
    department: doc.audienceKind === 'department' ? doc.audienceDepartment : department,
    role: doc.audienceKind === 'role' ? (doc.audienceRole ?? undefined) : undefined,
    ids: onlyIds,
    page,
    limit,
  });
}

async function namedOfDepartment(
  people: PeopleClient,
  named: string[],
  department: string,
  page: number,
  limit: number,
): Promise<AudiencePage> {
  const all: AudiencePage['data'] = [];
  for (let i = 0; i < named.length; i += 100) {
    const ids = named.slice(i, i + 100);
    all.push(...(await people.audience({ ids, department, page: 1, limit: ids.length })).data);
  }
  return { data: all.slice((page - 1) * limit, page * limit), total: all.length };
}

/** People read per round trip when a whole audience is gone through (a report, a filter by status, a download). */
const AUDIENCE_BATCH = 100;

/**
 * Every person of an assignment's audience with their status, a hundred at a time (one call to the
 * auth service and four store reads per hundred), at most EXPORT_MAX_ROWS people.
 */
export async function* audienceStatuses(
  deps: { models: ProgressModels; people: PeopleClient },
  doc: AssignmentDoc,
  department?: string,
): AsyncGenerator<{ person: AudiencePage['data'][number]; status: PersonStatus }> {
  let seen = 0;
  for (let page = 1; seen < EXPORT_MAX_ROWS; page += 1) {
    const batch = await audiencePage(deps.people, doc, page, AUDIENCE_BATCH, undefined, department);
    if (!batch.data.length) return;
    const statuses = await statusesFor(
      deps.models,
      [doc],
      batch.data.map((p) => p.id),
    );
    for (const person of batch.data) yield { person, status: statuses.get(`${String(doc._id)}|${person.id}`)! };
    seen += batch.data.length;
    if (endsAudience(batch, page, AUDIENCE_BATCH)) return;
  }
}

/** The report of one assignment: counts by status, the percent completed, completions per day. */
export async function assignmentReport(
  deps: { models: ProgressModels; people: PeopleClient },
  doc: AssignmentDoc,
  department?: string,
): Promise<AssignmentReport> {
  const counts: Record<AssignmentStatus, number> = { not_started: 0, in_progress: 0, completed: 0, overdue: 0 };
  const byDay = new Map<string, number>();
  let assigned = 0;
  for await (const { status } of audienceStatuses(deps, doc, department)) {
    assigned += 1;
    counts[status.status] += 1;
    if (status.completedAt) {
      const day = dayOf(new Date(status.completedAt));
      byDay.set(day, (byDay.get(day) ?? 0) + 1);
    }
  }
  return {
    assignmentId: String(doc._id),
    assigned,
    completed: counts.completed,
    inProgress: counts.in_progress,
    notStarted: counts.not_started,
    overdue: counts.overdue,
    percent: assigned ? Math.round((counts.completed / assigned) * 100) : 0,
    completedByDay: [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count })),
  };
}

/** A new due date for everyone (the assignment's) or for one person of its audience (theirs alone). */
export async function extendAssignment(
  deps: ProgressDeps & { people: PeopleClient },
  actor: Principal,
  doc: AssignmentDoc,
  dueDate: string,
  userId?: string,
): Promise<void> {
  assertDueDate(dueDate);
  const id = String(doc._id);
  if (userId) {
    const member = await audiencePage(deps.people, doc, 1, 1, [userId]);
    if (!member.data.length) throw notFound(ASSIGNMENT_MSG.personNotInAudience);
    await deps.models.assignmentExtensions.updateOne(
      { assignmentId: id, userId },
      { $set: { dueDate, updatedAt: clock.now() } },
      { upsert: true },
    );
  } else {
    // A new date for all replaces the personal ones that were earlier than it.
    await deps.models.assignments.updateOne({ _id: doc._id }, { $set: { dueDate } });
    await deps.models.assignmentExtensions.deleteMany({ assignmentId: id, dueDate: op({ $lte: dueDate }) });
  }
  const who = userId ? (await audiencePage(deps.people, doc, 1, 1, [userId])).data[0]?.fullName : null;
  deps.audit.publish({
    action: 'update',
    entity: 'assignment',
    entityId: id,
    details: `Срок назначения курса «${doc.courseTitle}» продлён до ${dueDate}${who ? ` для ${who}` : ' для всех'}`,
    actor,
  });
}

/**
 * The status of each (person, assignment) pair of a page: four reads whatever the page holds
 * (lesson completions, quiz attempts, personal due dates), then the pure rule of contracts.
 */
export async function statusesFor(
  models: ProgressModels,
  assignments: AssignmentDoc[],
  userIds: string[],
): Promise<Map<string, PersonStatus>> {
  const result = new Map<string, PersonStatus>();
  if (!assignments.length || !userIds.length) return result;
  const courseIds = [...new Set(assignments.map((a) => a.courseId))];
  const [completions, attempts, extensions] = await Promise.all([
    models.completions
      .find({ userId: op({ $in: userIds }), courseId: op({ $in: courseIds }) }, { userId: 1, lessonId: 1, completedAt: 1 })
      .lean<Array<{ userId: string; lessonId: string; completedAt: Date }>>(),
    models.attempts
      .find(
        { userId: op({ $in: userIds }), courseId: op({ $in: courseIds }) },
        { userId: 1, courseId: 1, lessonId: 1, status: 1, awaitingReview: 1, completedAt: 1 },
      )
      .lean<
        Array<{
          userId: string;
          courseId: string;
          lessonId: string;
          status: string;
          awaitingReview?: boolean;
          completedAt: Date | null;
        }>
      >(),
    models.assignmentExtensions
      .find({ assignmentId: op({ $in: assignments.map((a) => String(a._id)) }), userId: op({ $in: userIds }) })
      .lean<Array<{ assignmentId: string; userId: string; dueDate: string }>>(),
  ]);
  const lessonDone = new Map(completions.map((c) => [`${c.userId}|${c.lessonId}`, c.completedAt]));
  const passed = new Map<string, Date[]>();
  const attempted = new Set<string>();
  for (const a of attempts) {
    attempted.add(`${a.userId}|${a.courseId}`);
    if (!isFinalPass(a) || !a.completedAt) continue;
    const key = `${a.userId}|${a.lessonId}`;
    passed.set(key, [...(passed.get(key) ?? []), a.completedAt]);
  }
  const personalDue = new Map(extensions.map((e) => [`${e.assignmentId}|${e.userId}`, e.dueDate]));
  const now = clock.now();

  for (const doc of assignments) {
    const id = String(doc._id);
    for (const userId of userIds) {
      result.set(
        `${id}|${userId}`,
        personStatus({
          dueDate: personalDue.get(`${id}|${userId}`) ?? doc.dueDate,
          recurrenceMonths: doc.recurrenceMonths,
          completedAt: completionOf(doc, userId, lessonDone, passed),
          started: attempted.has(`${userId}|${doc.courseId}`) || doc.lessonIds.some((l) => lessonDone.has(`${userId}|${l}`)),
          now,
        }),
      );
    }
  }
  return result;
}

/**
 * When the person completed the course by the one rule of completion (`completedLessonIdsOf`): every
 * lesson without a quiz marked, every lesson with a quiz passed, at the latest of those moments. A
 * recurring assignment takes each quiz's latest pass (passing it again renews the training);
 * otherwise the first pass, so the date kept never moves.
 */
function completionOf(
  doc: Pick<AssignmentDoc, 'lessonIds' | 'quizLessonIds' | 'recurrenceMonths'>,
  userId: string,
  lessonDone: Map<string, Date>,
  passed: Map<string, Date[]>,
): Date | null {
  if (!doc.lessonIds.length) return null;
  let at = 0;
  const withQuiz = new Set(doc.quizLessonIds);
  for (const lessonId of doc.lessonIds) {
    if (withQuiz.has(lessonId)) continue; // complete when passed, below, whatever was marked
    const done = lessonDone.get(`${userId}|${lessonId}`);
    if (!done) return null;
    at = Math.max(at, done.getTime());
  }
  for (const lessonId of doc.quizLessonIds) {
    const passes = passed.get(`${userId}|${lessonId}`);
    if (!passes?.length) return null;
    const times = passes.map((d) => d.getTime());
    at = Math.max(at, doc.recurrenceMonths ? Math.max(...times) : Math.min(...times));
  }
  return new Date(at);
}

/** When one person completed a course (every lesson, every quiz passed; the first time), or null. */
export async function courseCompletedAt(
  models: ProgressModels,
  userId: string,
  snapshot: Pick<AssignmentDoc, 'courseId' | 'lessonIds' | 'quizLessonIds'>,
): Promise<Date | null> {
  const [completions, passes] = await Promise.all([
    models.completions
      .find({ userId, courseId: snapshot.courseId }, { lessonId: 1, completedAt: 1 })
      .lean<Array<{ lessonId: string; completedAt: Date }>>(),
    models.attempts
      .find(
        { userId, courseId: snapshot.courseId, status: 'passed' },
        { lessonId: 1, status: 1, awaitingReview: 1, completedAt: 1 },
      )
      .lean<Array<{ lessonId: string; status: string; awaitingReview?: boolean; completedAt: Date | null }>>(),
  ]);
  const lessonDone = new Map(completions.map((c) => [`${userId}|${c.lessonId}`, c.completedAt]));
  const passed = new Map<string, Date[]>();
  for (const a of passes) {
    if (!isFinalPass(a) || !a.completedAt) continue;
    const key = `${userId}|${a.lessonId}`;
    passed.set(key, [...(passed.get(key) ?? []), a.completedAt]);
  }
  return completionOf({ ...snapshot, recurrenceMonths: null }, userId, lessonDone, passed);
}

/** The filter of the assignments that reach a person: named, of their department, of their role, or everyone's. */
export function assignedTo(person: Principal): Record<string, unknown> {
  const reach: Record<string, unknown>[] = [
    { audienceKind: 'all' },
    { audienceKind: 'users', audienceUserIds: person.id },
    { audienceKind: 'role', audienceRole: person.role },
  ];
  if (person.department) reach.push({ audienceKind: 'department', audienceDepartment: person.department });
  return { $or: reach };
}

/**
 * The seam for reminders (not built here): the assignments whose common due date is `day`. A
 * reminder job pages their audience (audiencePage) and keeps the people whose status is not
 * completed; personal extensions are in assignment_extensions (by assignmentId).
 */
export const assignmentsDueOn = (models: ProgressModels, day: string) =>
  models.assignments.find({ dueDate: day }).sort({ _id: 1 }).lean<AssignmentDoc[]>();
