import { Schema, type Types } from 'mongoose';
import type { ScormInteraction, ScormScore } from '@portal/contracts';
import { storeModel } from '@portal/service-kit';

/**
 * One learner's attempt at one lesson's SCO: what the package last committed. The CMI tree is kept
 * as a JSON string: its keys are the package's own (interaction indexes, vendor extensions), and
 * FerretDB refuses keys with dots or a leading dollar.
 */
export interface ScormAttemptDoc {
  _id: Types.ObjectId;
  userId: string;
  userName: string;
  courseId: string;
  /** As the course was titled when the attempt started (the export names it). */
  courseTitle: string;
  lessonId: string;
  /** As the lesson was titled when the attempt started (the curator's list names it). */
  lessonTitle: string;
  packageId: string;
  scoId: string;
  /** 1, 2, … per learner and lesson. */
  number: number;
  /** scorm-again's `runtimeData` of the last applied commit, as JSON; '' before the first. */
  cmi: string;
  completionStatus: string;
  successStatus: string;
  score: ScormScore;
  totalTimeSeconds: number;
  sessionTimeSeconds: number;
  interactions: ScormInteraction[];
  /** The last applied commitSequence: a commit at or below it changes nothing. */
  sequence: number;
  /** cmi.exit (cmi.core.exit in 1.2) of the last commit: 'suspend' resumes. */
  exit: string;
  /** The package ended its session (Terminate / LMSFinish: the commit sent with `?final=true`). */
  ended: boolean;
  /** When the SCO first reported completion (scormCountsAsCompleted); the lesson was completed then. */
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const scoreSchema = new Schema<ScormScore>(
  {
    raw: { type: Number, default: null },
    min: { type: Number, default: null },
    max: { type: Number, default: null },
    scaled: { type: Number, default: null },
  },
  { _id: false },
);

const interactionSchema = new Schema<ScormInteraction>(
  {
    id: { type: String, default: '' },
    type: { type: String, default: '' },
    response: { type: String, default: '' },
    result: { type: String, default: '' },
    latency: { type: Number, default: null },
    correctResponses: { type: [String], default: [] },
  },
  { _id: false },
);

const scormAttemptSchema = new Schema<ScormAttemptDoc>(
  {
    userId: { type: String, required: true },
    userName: { type: String, default: '' },
    courseId: { type: String, required: true },
    courseTitle: { type: String, default: '' },
    lessonId: { type: String, required: true },
    lessonTitle: { type: String, default: '' },
    packageId: { type: String, default: '' },
    scoId: { type: String, default: '' },
    number: { type: Number, required: true },
    cmi: { type: String, default: '' },
    completionStatus: { type: String, default: 'unknown' },
    successStatus: { type: String, default: 'unknown' },
    score: { type: scoreSchema, default: () => ({ raw: null, min: null, max: null, scaled: null }) },
    totalTimeSeconds: { type: Number, default: 0 },
    sessionTimeSeconds: { type: Number, default: 0 },
    interactions: { type: [interactionSchema], default: [] },
    sequence: { type: Number, default: 0 },
    exit: { type: String, default: '' },
    ended: { type: Boolean, default: false },
    completedAt: { type: Date, default: null },
  },
  { versionKey: false, timestamps: true },
);
// Attempt numbers never repeat: two first opens racing cannot both create attempt 1.
scormAttemptSchema.index({ userId: 1, lessonId: 1, number: 1 }, { unique: true });
// A curator's list: one course's attempts, newest first.
scormAttemptSchema.index({ courseId: 1, updatedAt: -1, _id: -1 });
scormAttemptSchema.index({ userId: 1, updatedAt: -1, _id: -1 });
// A lesson's item analysis.
scormAttemptSchema.index({ lessonId: 1 });
// A lesson's item analysis: its latest attempts.
scormAttemptSchema.index({ courseId: 1, lessonId: 1, updatedAt: -1, _id: -1 });

export const scormAttemptModel = storeModel<ScormAttemptDoc>('ScormAttempt', scormAttemptSchema, 'scormAttempts');
