import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface CompletionDoc {
  _id: Types.ObjectId;
  userId: string;
  courseId: string;
  lessonId: string;
  completedAt: Date;
}

const completionSchema = new Schema<CompletionDoc>(
  {
    userId: { type: String, required: true },
    courseId: { type: String, required: true },
    lessonId: { type: String, required: true },
    completedAt: { type: Date, default: Date.now },
  },
  { versionKey: false },
);
// One record per learner and lesson: completing twice changes nothing.
completionSchema.index({ userId: 1, lessonId: 1 }, { unique: true });
completionSchema.index({ userId: 1, courseId: 1 });

export const completionModel = (store: Connection): Model<CompletionDoc> =>
  (store.models.Completion as Model<CompletionDoc>) ?? store.model<CompletionDoc>('Completion', completionSchema, 'completions');
