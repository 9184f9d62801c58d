import { Schema, type InferRawDocType } from 'mongoose';
import { bumpOnWrite, storeModel } from '@portal/service-kit';

export const MARK_KINDS = ['favorite', 'started'] as const;
export type MarkKind = (typeof MARK_KINDS)[number];

const courseMarkFields = {
  userId: { type: String, required: true },
  courseId: { type: Schema.Types.ObjectId, required: true },
  kind: { type: String, enum: MARK_KINDS, required: true },
  createdAt: { type: Date, default: Date.now },
};

/** A person's own relation to a course: a favourite, or a course they have started. */
export type CourseMarkDoc = InferRawDocType<typeof courseMarkFields>;

const courseMarkSchema = new Schema<CourseMarkDoc>(courseMarkFields, { versionKey: false });
// One mark of a kind per person and course, so adding twice is harmless.
courseMarkSchema.index({ userId: 1, courseId: 1, kind: 1 }, { unique: true });
courseMarkSchema.index({ courseId: 1 });
// A person's favourites or started courses, most recently marked first.
courseMarkSchema.index({ userId: 1, kind: 1, createdAt: -1, _id: -1 });

/**
 * The version of what is kept of each person's marks (commands/marks.ts): a write naming one person
 * (a mark added or removed) moves theirs, any other (a course deleted with its marks) everyone's.
 */
export const MARKS_VERSION = { name: 'course_marks', keyedBy: 'userId' } as const;
bumpOnWrite(courseMarkSchema, MARKS_VERSION.name, undefined, { keyedBy: MARKS_VERSION.keyedBy });

export const courseMarkModel = storeModel<CourseMarkDoc>('CourseMark', courseMarkSchema, 'course_marks');
