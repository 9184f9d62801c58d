import {
  EXPORT_MAX_ROWS,
  dayOf,
  isFinalPass,
  personStatus,
  type AssignmentReport,
  type AssignmentStatus,
  type PersonStatus,
} from '@portal/contracts';
import { clock, op } from '@portal/service-kit';
import { endsAudience, type AudiencePage, type PeopleClient } from '../clients/people';
import type { AssignmentDoc } from '../models/assignment';
import type { ProgressModels } from '../models';
import { audiencePage } from './assignmentAudience';

/**
 * Where each person stands on an assignment, by the one rule of completion, and the report of an
 * assignment's whole audience.
 */

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
