import type { Types } from 'mongoose';
import type { AuditCode } from '@portal/contracts';
import { onePer, op, VersionedCache } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { CourseDoc } from '../models/course';
import { MARKS_VERSION, type MarkKind } from '../models/courseMark';
import { recordAudit, type CommandDeps } from './deps';

/** A person's marks, by kind: the courses' ids. */
interface PersonMarks {
  favorite: Set<string>;
  started: Set<string>;
}

/** A person's marks are kept whole when they are at most this many (a person holds a few dozen); past it they are read per question. */
const KEPT_MARKS = 1000;

/**
 * Every course page and every catalogue page shows the person's marks on its courses, so each cost
 * the store a read of them. A person's marks are kept per process, whole, stamped with the version of
 * their marks (Redis; MARKS_VERSION: a mark of theirs added or removed moves it, a course deleted
 * with its marks moves everyone's), as VersionedCache keeps a list's pages.
 */
const keptMarksOf = onePer(
  (marks: ContentModels['marks']) =>
    new VersionedCache<PersonMarks | null>(marks.db, { name: MARKS_VERSION.name, maxEntries: 10_000 }),
);

const marksByKind = (rows: Array<{ courseId: Types.ObjectId; kind: MarkKind }>): PersonMarks => {
  const of = (kind: MarkKind) => new Set(rows.filter((r) => r.kind === kind).map((r) => String(r.courseId)));
  return { favorite: of('favorite'), started: of('started') };
};

/** All of a person's marks, or null when they hold more than are kept. */
async function allMarksOf(models: ContentModels, userId: string): Promise<PersonMarks | null> {
  const rows = await models.marks
    .find({ userId })
    .select({ courseId: 1, kind: 1 })
    .limit(KEPT_MARKS + 1)
    .lean<{ courseId: Types.ObjectId; kind: MarkKind }[]>();
  return rows.length > KEPT_MARKS ? null : marksByKind(rows);
}

/** Which of these courses the person has favourited and started. */
export async function marksOf(models: ContentModels, userId: string, courseIds: Types.ObjectId[]): Promise<PersonMarks> {
  const all = await keptMarksOf(models.marks).get(
    { marksOf: userId },
    () => allMarksOf(models, userId),
    (marks) => marks !== null,
    { key: userId },
  );
  const ids = new Set(courseIds.map(String));
  if (all) {
    const among = (marked: Set<string>) => new Set([...marked].filter((id) => ids.has(id)));
    return { favorite: among(all.favorite), started: among(all.started) };
  }
  const rows = await models.marks
    .find({ userId, courseId: op({ $in: courseIds }) })
    .select({ courseId: 1, kind: 1 })
    .lean<{ courseId: Types.ObjectId; kind: MarkKind }[]>();
  return marksByKind(rows);
}

const isDuplicate = (err: unknown) => (err as { code?: number })?.code === 11000;

/** The audit events of a mark's adding and removing. */
const EVENTS = {
  favorite: { add: 'course.favorited', remove: 'course.unfavorited' },
  started: { add: 'course.markedStarted', remove: 'course.unmarkedStarted' },
} as const satisfies Record<MarkKind, { add: AuditCode; remove: AuditCode }>;

/** Idempotent: a second add keeps the first mark (and its time). */
export async function addMark(deps: CommandDeps, course: CourseDoc, kind: MarkKind): Promise<void> {
  const key = { userId: deps.actor.id, courseId: course._id, kind };
  try {
    const result = await deps.models.marks.updateOne(key, { $setOnInsert: { createdAt: new Date() } }, { upsert: true });
    if (!result.upsertedCount) return;
  } catch (err) {
    if (isDuplicate(err)) return; // the same click twice at once: the other one stored it
    throw err;
  }
  recordAudit(deps, { code: EVENTS[kind].add, data: { title: course.title }, entityId: String(course._id) });
}

export async function removeMark(deps: CommandDeps, course: CourseDoc, kind: MarkKind): Promise<void> {
  const { deletedCount } = await deps.models.marks.deleteOne({ userId: deps.actor.id, courseId: course._id, kind });
  if (!deletedCount) return;
  recordAudit(deps, { code: EVENTS[kind].remove, data: { title: course.title }, entityId: String(course._id) });
}
