import { createHash } from 'node:crypto';
import { isValidObjectId } from 'mongoose';
import {
  ASSIGNMENT_MSG,
  dayOf,
  type AssignmentCreateInput,
  type AssignmentUpdateInput,
  type CourseOutline,
} from '@portal/contracts';
import { badRequest, clock, notFound, op, serialised, type Principal } from '@portal/service-kit';
import type { PeopleClient } from '../clients/people';
import type { AssignmentDoc } from '../models/assignment';
import type { ProgressModels } from '../models';
import { audienceData, audienceFields, audienceOf, audiencePage } from './assignmentAudience';
import type { ProgressDeps } from './deps';
import { changed } from './changes';

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

/** The assignment's course, as its audit events name it. */
const assigned = (doc: Pick<AssignmentDoc, 'courseTitle' | 'courseId'>) => ({ course: doc.courseTitle, courseId: doc.courseId });

/** The fields an edit changed, before and after, for its audit event. */
function changesOf(before: AssignmentDoc, after: AssignmentDoc) {
  // The named people in any order; the event counts them.
  const rule = (doc: AssignmentDoc) =>
    JSON.stringify({ ...audienceFields(audienceOf(doc)), audienceUserIds: [...doc.audienceUserIds].sort() });
  return {
    ...changed('dueDate', before.dueDate, after.dueDate),
    ...(rule(before) !== rule(after)
      ? { audience: { from: audienceData(audienceOf(before)), to: audienceData(audienceOf(after)) } }
      : {}),
    // A record written before a field existed reads it as its default.
    ...changed('mandatory', before.mandatory ?? true, after.mandatory ?? true),
    ...changed('recurrenceMonths', before.recurrenceMonths ?? null, after.recurrenceMonths ?? null),
  };
}

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
      code: 'assignment.created',
      data: { ...assigned(doc), audience: audienceData(input.audience), dueDate: doc.dueDate },
      entityId: String(doc._id),
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
    code: 'assignment.updated',
    data: {
      ...assigned(after),
      audience: audienceData(input.audience),
      dueDate: after.dueDate,
      changes: changesOf(before, after),
    },
    entityId: String(after._id),
    actor,
  });
  return after;
}

export async function deleteAssignment(deps: ProgressDeps, actor: Principal, doc: AssignmentDoc): Promise<void> {
  await Promise.all([
    deps.models.assignments.deleteOne({ _id: doc._id }),
    deps.models.assignmentExtensions.deleteMany({ assignmentId: String(doc._id) }),
  ]);
  deps.audit.publish({ code: 'assignment.deleted', data: assigned(doc), entityId: String(doc._id), actor });
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
    code: 'assignment.extended',
    data: {
      ...assigned(doc),
      dueDate,
      // The date it replaces is known for everyone's; a person's own may be the assignment's or an earlier extension.
      ...(userId ? { userId } : { previousDueDate: doc.dueDate }),
      ...(who ? { person: who } : {}),
    },
    entityId: id,
    actor,
  });
}

/**
 * The seam for reminders (not built here): the assignments whose common due date is `day`. A
 * reminder job pages their audience (audiencePage) and keeps the people whose status is not
 * completed; personal extensions are in assignment_extensions (by assignmentId).
 */
export const assignmentsDueOn = (models: ProgressModels, day: string) =>
  models.assignments.find({ dueDate: day }).sort({ _id: 1 }).lean<AssignmentDoc[]>();
