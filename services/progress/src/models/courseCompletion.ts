import { Schema, type InferRawDocType } from 'mongoose';
import { storeModel } from '@portal/service-kit';

const courseCompletionFields = {
  userId: { type: String, required: true },
  courseId: { type: String, required: true },
  courseTitle: { type: String, default: '' },
  completedAt: { type: Date, required: true },
};

/**
 * A learner finished every lesson of a course. Written once, when the last lesson is completed;
 * it stays if lessons are added later (the course was completed then). The dashboard counts these.
 */
export type CourseCompletionDoc = InferRawDocType<typeof courseCompletionFields>;

const courseCompletionSchema = new Schema<CourseCompletionDoc>(courseCompletionFields, { versionKey: false });
courseCompletionSchema.index({ userId: 1, courseId: 1 }, { unique: true });
courseCompletionSchema.index({ userId: 1, completedAt: -1 });

export const courseCompletionModel = storeModel<CourseCompletionDoc>(
  'CourseCompletion',
  courseCompletionSchema,
  'course_completions',
);
