import { Schema, type Connection, type Model, type Types } from 'mongoose';

export const MARK_KINDS = ['favorite', 'started'] as const;
export type MarkKind = (typeof MARK_KINDS)[number];

/** A person's own relation to a course: a favourite, or a course they have started. */
export interface CourseMarkDoc {
  _id: Types.ObjectId;
  userId: string;
  courseId: Types.ObjectId;
  kind: MarkKind;
  createdAt: Date;
}

const courseMarkSchema = new Schema<CourseMarkDoc>(
  {
    userId: { type: String, required: true },
    courseId: { type: Schema.Types.ObjectId, required: true },
    kind: { type: String, enum: MARK_KINDS, required: true },
    createdAt: { type: Date, default: Date.now },
  },
  { versionKey: false },
);
// One mark of a kind per person and course, so adding twice is harmless.
courseMarkSchema.index({ userId: 1, courseId: 1, kind: 1 }, { unique: true });
courseMarkSchema.index({ courseId: 1 });
// A person's favourites or started courses, most recently marked first.
courseMarkSchema.index({ userId: 1, kind: 1, createdAt: -1, _id: -1 });

export const courseMarkModel = (store: Connection): Model<CourseMarkDoc> =>
  (store.models.CourseMark as Model<CourseMarkDoc>) ?? store.model<CourseMarkDoc>('CourseMark', courseMarkSchema, 'course_marks');
