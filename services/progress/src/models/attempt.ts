import { Schema, type Types } from 'mongoose';
import {
  DEFAULT_SHOW_CORRECT_ANSWERS,
  SHOW_CORRECT_ANSWERS,
  SHOW_EXPLANATIONS,
  SCORING_MODES,
  type AnswerValue,
  type AttemptStatus,
  type Question,
  type ScoringMode,
  type ShowCorrectAnswers,
  type ShowExplanations,
} from '@portal/contracts';
import { questionFields, storeModel } from '@portal/service-kit';

/**
 * A question as it was when the attempt started, with the order its options were shown in:
 * grading and the results never depend on later edits of the quiz.
 */
export interface StoredQuestion extends Question {
  /** Shown option i is options[optionOrder[i]] (choice and ordering questions). */
  optionOrder: number[];
  /** matching: shown left i is pairs[leftOrder[i]].left, shown right j is pairs[rightOrder[j]].right. */
  leftOrder: number[];
  rightOrder: number[];
}

export interface StoredAnswer {
  questionId: string;
  /** In the quiz's own terms (option indexes of the stored question), not the order shown. */
  answer: AnswerValue;
  isCorrect: boolean;
  /** Points earned (the engine's grade; partial credit when the quiz is proportional). Older attempts: none. */
  points?: number;
  timeSpent: number;
  /** Sent after the time limit and its grace: kept for the record, counted as unanswered. */
  late: boolean;
  /** long_answer / file_upload answered in time: waits for a person («Проверка ответов»). */
  needsReview?: boolean;
  /** The person's grade, once given: replaces `points`. */
  review?: StoredReview;
}

export interface StoredReview {
  score: number;
  comment: string;
  by: string;
  byName: string;
  at: Date;
}

export interface AttemptDoc {
  _id: Types.ObjectId;
  userId: string;
  userName: string;
  quizId: string;
  quizTitle: string;
  quizDescription: string;
  courseId: string;
  courseTitle: string;
  /** The published version of the course the attempt was taken on (docs/decisions/093); null without versions. */
  courseVersion?: number | null;
  lessonId: string;
  attemptNumber: number;
  status: AttemptStatus;
  passingScore: number;
  maxAttempts: number;
  showExplanations: ShowExplanations;
  /** When the results name the right answers (attempts from before the setting: the default). */
  showCorrectAnswers?: ShowCorrectAnswers;
  /** all_or_nothing or proportional, as the quiz said when the attempt started. */
  scoring?: ScoringMode;
  /** The random value every order shown in this attempt comes from (presentQuestions); never sent. */
  shuffleSeed?: string;
  /** Minutes; null for none. */
  timeLimit: number | null;
  startedAt: Date;
  deadline: Date | null;
  completedAt: Date | null;
  questions: StoredQuestion[];
  answers: StoredAnswer[];
  score: number;
  maxScore: number;
  percentage: number;
  /** Answers still waiting for a person; the attempt is «на проверке» while above 0. */
  pendingReviews?: number;
  /** pendingReviews > 0, as an equality the store's index serves (the review queue). */
  awaitingReview?: boolean;
  /** Set by the call that closed the attempt when its time ran out (finalizeExpired). */
  expiredBy?: string;
  /** Taken by a candidate «по ссылке» (the link's id); such a candidate is deleted after the retention period. */
  viaLinkId?: string | null;
  /** The link said the candidate does not see the result: their own views of it carry none. */
  resultHidden?: boolean;
}

const questionSchema = new Schema<StoredQuestion>(
  {
    ...questionFields,
    question: { type: String, default: '' },
    optionOrder: { type: [Number], default: [] },
    leftOrder: { type: [Number], default: [] },
    rightOrder: { type: [Number], default: [] },
  },
  { _id: false },
);

const answerSchema = new Schema<StoredAnswer>(
  {
    questionId: { type: String, required: true },
    answer: { type: Schema.Types.Mixed, default: null },
    isCorrect: { type: Boolean, default: false },
    points: { type: Number },
    needsReview: { type: Boolean },
    review: {
      type: new Schema({ score: Number, comment: String, by: String, byName: String, at: Date }, { _id: false }),
      default: undefined,
    },
    timeSpent: { type: Number, default: 0 },
    late: { type: Boolean, default: false },
  },
  { _id: false },
);

const attemptSchema = new Schema<AttemptDoc>(
  {
    userId: { type: String, required: true },
    userName: { type: String, default: '' },
    quizId: { type: String, required: true },
    quizTitle: { type: String, default: '' },
    quizDescription: { type: String, default: '' },
    courseId: { type: String, required: true },
    courseTitle: { type: String, default: '' },
    courseVersion: { type: Number, default: null },
    lessonId: { type: String, required: true },
    attemptNumber: { type: Number, required: true },
    status: { type: String, enum: ['in_progress', 'passed', 'failed'], required: true },
    passingScore: { type: Number, required: true },
    maxAttempts: { type: Number, required: true },
    showExplanations: { type: String, enum: SHOW_EXPLANATIONS, required: true },
    showCorrectAnswers: { type: String, enum: SHOW_CORRECT_ANSWERS, default: DEFAULT_SHOW_CORRECT_ANSWERS },
    scoring: { type: String, enum: SCORING_MODES },
    shuffleSeed: { type: String },
    timeLimit: { type: Number, default: null },
    startedAt: { type: Date, required: true },
    deadline: { type: Date, default: null },
    completedAt: { type: Date, default: null },
    questions: { type: [questionSchema], default: [] },
    answers: { type: [answerSchema], default: [] },
    score: { type: Number, default: 0 },
    maxScore: { type: Number, default: 0 },
    percentage: { type: Number, default: 0 },
    expiredBy: { type: String },
    viaLinkId: { type: String, default: null },
    resultHidden: { type: Boolean, default: false },
    pendingReviews: { type: Number },
    awaitingReview: { type: Boolean },
  },
  { versionKey: false },
);
// Attempt numbers never repeat: two starts racing for the same number cannot both win.
attemptSchema.index({ userId: 1, quizId: 1, attemptNumber: 1 }, { unique: true });
// «Проверка ответов»: the attempts waiting for a person, oldest first.
attemptSchema.index({ awaitingReview: 1, completedAt: 1, _id: 1 });
attemptSchema.index({ status: 1, deadline: 1 });
// The results' order (completedAt, then _id) behind each of their filters: everyone's, one
// person's, one quiz's. A page is an index walk, never a sort of every attempt. The first two also
// serve every query on their leading fields (the latest attempts, one person's finished ones), so no
// shorter index repeats them: each index is written on every change of an attempt.
attemptSchema.index({ status: 1, completedAt: -1, _id: -1 });
attemptSchema.index({ userId: 1, status: 1, completedAt: -1, _id: -1 });
attemptSchema.index({ quizId: 1, status: 1, completedAt: -1, _id: -1 });

export const attemptModel = storeModel<AttemptDoc>('Attempt', attemptSchema, 'attempts');
