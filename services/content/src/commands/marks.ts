import type { Types } from 'mongoose';
import type { AuditCode } from '@portal/contracts';
import { op } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { CourseDoc } from '../models/course';
import type { MarkKind } from '../models/courseMark';
import { recordAudit, type CommandDeps } from './deps';

/** Which of these courses the person has favourited and started. */
export async function marksOf(models: ContentModels, userId: string, courseIds: Types.ObjectId[]) {
  const rows = await models.marks
    .find({ userId, courseId: op({ $in: courseIds }) })
    .select({ courseId: 1, kind: 1 })
    .lean<{ courseId: Types.ObjectId; kind: MarkKind }[]>();
  const of = (kind: MarkKind) => new Set(rows.filter((r) => r.kind === kind).map((r) => String(r.courseId)));
  return { favorite: of('favorite'), started: of('started') };
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
