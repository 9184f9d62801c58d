import { Schema, type Connection, type Model, type Types } from 'mongoose';

/**
 * A learner finished every lesson of a course. Written once, when the last lesson is completed;
 * it stays if lessons are added later (the course was completed then). The dashboard counts these.
 */
export interface CourseCompletionDoc {
  _id: Types.ObjectId;
  userId: string;
  courseId: string;
  courseTitle: string;
  completedAt: Date;
}

const courseCompletionSchema = new Schema<CourseCompletionDoc>(
  {
    userId: { type: String, required: true },
    courseId: { type: String, required: true },
    courseTitle: { type: String, default: '' },
    completedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
courseCompletionSchema.index({ userId: 1, courseId: 1 }, { unique: true });
courseCompletionSchema.index({ userId: 1, completedAt: -1 });

export const courseCompletionModel = (store: Connection): Model<CourseCompletionDoc> =>
  (store.models.CourseCompletion as Model<CourseCompletionDoc>) ??
  store.model<CourseCompletionDoc>('CourseCompletion', courseCompletionSchema, 'course_completions');
