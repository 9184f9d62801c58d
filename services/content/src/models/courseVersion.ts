import { Schema, type Types } from 'mongoose';
import { storeModel } from '@portal/service-kit';

/**
 * A published version of a course (docs/decisions/093): its modules in order, the quizzes its
 * lessons hold and its question bank, each as the id of a content snapshot (content_snapshots).
 * Unchanged parts keep the ids of the version before, so a version stores only what changed.
 */
export interface CourseVersionDoc {
  _id: Types.ObjectId;
  courseId: Types.ObjectId;
  number: number;
  summary: string;
  publishedBy: { id: string; name: string };
  publishedAt: Date;
  /** Module snapshot ids in the course's order. */
  modules: string[];
  /** The quizzes its lessons hold: quiz id and snapshot id. */
  quizzes: Array<{ id: string; snap: string }>;
  /** The bank's index snapshot (every question's id, tags and snapshot); null with no bank. */
  bank: string | null;
  /** What it changed against the version before. */
  counts: { added: number; removed: number; changed: number };
  retakeLessonIds: string[];
  /** An attempt was started on it: a result refers to it, so it is never pruned. */
  pinned: boolean;
}

const courseVersionSchema = new Schema<CourseVersionDoc>(
  {
    courseId: { type: Schema.Types.ObjectId, required: true },
    number: { type: Number, required: true, min: 1 },
    summary: { type: String, default: '' },
    publishedBy: { type: new Schema({ id: String, name: String }, { _id: false }), required: true },
    publishedAt: { type: Date, required: true },
    modules: { type: [String], default: [] },
    quizzes: { type: [new Schema({ id: String, snap: String }, { _id: false })], default: [] },
    bank: { type: String, default: null },
    counts: {
      type: new Schema({ added: Number, removed: Number, changed: Number }, { _id: false }),
      default: () => ({ added: 0, removed: 0, changed: 0 }),
    },
    retakeLessonIds: { type: [String], default: [] },
    pinned: { type: Boolean, default: false },
  },
  { versionKey: false },
);
// The one atomic point of a publish: two publishes of the same number cannot both land.
courseVersionSchema.index({ courseId: 1, number: 1 }, { unique: true });

export const courseVersionModel = storeModel<CourseVersionDoc>('CourseVersion', courseVersionSchema, 'course_versions');

export type SnapshotKind = 'lesson' | 'module' | 'quiz' | 'bankQuestion' | 'bankIndex';

/**
 * One part of a course as it was published, addressed by its content: the id is a hash of its kind,
 * its source's id and what it holds, so the same lesson unchanged across versions is stored once.
 */
export interface SnapshotDoc {
  _id: string;
  kind: SnapshotKind;
  courseId: Types.ObjectId;
  /** The lesson, module, quiz or bank question it was taken of (the course for a bank index). */
  sourceId: string;
  body: Record<string, unknown>;
}

const snapshotSchema = new Schema<SnapshotDoc>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true },
    courseId: { type: Schema.Types.ObjectId, required: true },
    sourceId: { type: String, required: true },
    body: { type: Schema.Types.Mixed, required: true },
  },
  { versionKey: false, minimize: false },
);
// A course's snapshots of one kind (the reads of several at once, and pruning).
snapshotSchema.index({ courseId: 1, kind: 1 });
// A lesson deleted from the draft is still found (with its course) by learners of the published version.
snapshotSchema.index({ sourceId: 1 });

export const snapshotModel = storeModel<SnapshotDoc>('ContentSnapshot', snapshotSchema, 'content_snapshots');
