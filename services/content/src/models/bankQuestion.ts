import { Schema, type Types } from 'mongoose';
import type { Question } from '@portal/contracts';
import { storeModel, versionPlugin } from '@portal/service-kit';
import { questionSchema } from './quiz';

/** A question of a course's bank (docs/decisions/035); its `question.id` is `bank-<_id>`. */
export interface BankQuestionDoc {
  _id: Types.ObjectId;
  courseId: string;
  tags: string[];
  question: Question;
  createdBy: string | null;
  version?: number;
  createdAt: Date;
  updatedAt: Date;
}

const bankQuestionSchema = new Schema<BankQuestionDoc>(
  {
    courseId: { type: String, required: true },
    tags: { type: [String], default: [] },
    question: { type: questionSchema, required: true },
    createdBy: { type: String, default: null },
  },
  { timestamps: true },
);
bankQuestionSchema.plugin(versionPlugin);
// The bank's page (newest first) and a tag's pool (by id, the draw's stable order).
bankQuestionSchema.index({ courseId: 1, _id: -1 });
bankQuestionSchema.index({ courseId: 1, tags: 1, _id: 1 });

export const bankQuestionModel = storeModel<BankQuestionDoc>('BankQuestion', bankQuestionSchema, 'bank_questions');
