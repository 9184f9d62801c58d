import { randomBytes } from 'node:crypto';
import { Schema, type Types } from 'mongoose';
import {
  DEFAULT_SCORING,
  DEFAULT_SHOW_CORRECT_ANSWERS,
  SCORING_MODES,
  SHOW_CORRECT_ANSWERS,
  SHOW_EXPLANATIONS,
  type Question,
  type QuizDraw,
  type QuizSettings,
} from '@portal/contracts';
import { questionFields, storeModel, versionPlugin } from '@portal/service-kit';

/**
 * A quiz. Questions are subdocuments holding arrays, which both stores keep;
 * correctness data stays here and reaches a learner only through the learner presenter.
 */
export interface QuizDoc {
  _id: Types.ObjectId;
  title: string;
  description: string;
  /** The course it was written for, if any; a lesson of any course may still hold it. */
  courseId: string | null;
  questions: Question[];
  settings: QuizSettings;
  /** Questions drawn from the course's bank per attempt: `count` with `tag` each. */
  draws?: QuizDraw[];
  createdBy: string | null;
  /** Made by the course builder or an accepted regeneration: only such content offers «Перегенерировать». */
  generated?: boolean;
  /**
   * A random value the learner view's shuffle is seeded with (presentQuizForLearner); never sent.
   * Quizzes from before it get one on their first learner read.
   */
  shuffleSeed?: string;
  /** Moves with each write of the quiz (optimistic concurrency). */
  version?: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A question as stored (a quiz's, and a bank's). */
export const questionSchema = new Schema<Question>(questionFields, { _id: false });

const settingsSchema = new Schema<QuizSettings>(
  {
    randomizeQuestions: { type: Boolean, required: true },
    randomizeAnswers: { type: Boolean, required: true },
    passingScore: { type: Number, required: true, min: 0, max: 100 },
    maxAttempts: { type: Number, required: true, min: 1, max: 10 },
    showExplanations: { type: String, enum: SHOW_EXPLANATIONS, required: true },
    // Quizzes from before the setting read as the default.
    showCorrectAnswers: { type: String, enum: SHOW_CORRECT_ANSWERS, default: DEFAULT_SHOW_CORRECT_ANSWERS },
    // Quizzes from before the setting score as the spec does: all or nothing.
    scoring: { type: String, enum: SCORING_MODES, default: DEFAULT_SCORING },
    timeLimit: { type: Number, default: null },
  },
  { _id: false },
);

const quizSchema = new Schema<QuizDoc>(
  {
    title: { type: String, required: true, trim: true, maxlength: 200 },
    description: { type: String, default: '' },
    courseId: { type: String, default: null, index: true },
    questions: { type: [questionSchema], default: [] },
    settings: { type: settingsSchema, required: true },
    draws: { type: [new Schema<QuizDraw>({ tag: String, count: Number }, { _id: false })], default: [] },
    createdBy: { type: String, default: null },
    generated: { type: Boolean },
    shuffleSeed: { type: String, default: () => randomBytes(16).toString('hex') },
  },
  { timestamps: true },
);
quizSchema.plugin(versionPlugin);
quizSchema.index({ updatedAt: -1 });

export const quizModel = storeModel<QuizDoc>('Quiz', quizSchema, 'quizzes');
