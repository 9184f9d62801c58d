import { Schema, type InferRawDocType } from 'mongoose';
import { storeModel } from '@portal/service-kit';

const completionFields = {
  userId: { type: String, required: true },
  courseId: { type: String, required: true },
  lessonId: { type: String, required: true },
  completedAt: { type: Date, default: Date.now },
};

/** A learner completed a lesson (the type is the fields', so each is declared once). */
export type CompletionDoc = InferRawDocType<typeof completionFields>;

const completionSchema = new Schema<CompletionDoc>(completionFields, { versionKey: false });
// One record per learner and lesson: completing twice changes nothing.
completionSchema.index({ userId: 1, lessonId: 1 }, { unique: true });
completionSchema.index({ userId: 1, courseId: 1 });

export const completionModel = storeModel<CompletionDoc>('Completion', completionSchema, 'completions');
