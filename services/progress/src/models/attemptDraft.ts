import type { AnswerValue } from '@portal/contracts';
import { Schema, type Types } from 'mongoose';
import { storeModel } from '@portal/service-kit';

/** An answer saved as the learner goes (docs/decisions/095): as the player sent it, in the order it showed. */
export interface SavedAnswer {
  questionId: string;
  answer: AnswerValue;
  timeSpent: number;
}

/**
 * The answers of an unfinished attempt as last saved, and when (docs/decisions/099): a small document
 * of its own, under the attempt's id, so that a save (twenty in a twenty-minute exam) rewrites about
 * 1.4 KB instead of the whole attempt with its questions. It carries what a save is checked against:
 * whose it is, its deadline and the questions it holds. Written by the first save, deleted when the
 * attempt closes (its answers are then graded on the attempt).
 */
export interface AttemptDraftDoc {
  /** The attempt's own id. */
  _id: Types.ObjectId;
  userId: string;
  quizId: string;
  quizTitle: string;
  attemptNumber: number;
  deadline: Date | null;
  questionIds: string[];
  answers: SavedAnswer[];
  savedAt: Date;
}

const attemptDraftSchema = new Schema<AttemptDraftDoc>(
  {
    userId: { type: String, required: true },
    quizId: { type: String, required: true },
    quizTitle: { type: String, default: '' },
    attemptNumber: { type: Number, required: true },
    deadline: { type: Date, default: null },
    questionIds: { type: [String], default: [] },
    // Stored as the save route checked them (its schema), not cast again field by field: casting each
    // answer as a subdocument was about a tenth of progress's CPU in the exam storm (twenty saves an
    // attempt, each with every answer so far). Drafts are only ever read lean.
    answers: { type: Schema.Types.Mixed, default: () => [] },
    savedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// A person's drafts: their data export, a candidate's purge.
attemptDraftSchema.index({ userId: 1 });

export const attemptDraftModel = storeModel<AttemptDraftDoc>('AttemptDraft', attemptDraftSchema, 'attempt_drafts');
