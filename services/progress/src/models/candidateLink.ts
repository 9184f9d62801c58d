import { Schema, type Connection, type Model, type Types } from 'mongoose';
import type { CandidateLink } from '@portal/contracts';

/**
 * A link to one quiz lesson, stored as staff see it (`CandidateLink`) with dates as dates. Its state
 * is worked out when read, and only the SHA-256 (hex) of the token in `/t/{token}` is kept.
 */
export interface CandidateLinkDoc extends Omit<CandidateLink, 'id' | 'state' | 'createdAt' | 'revokedAt'> {
  _id: Types.ObjectId;
  tokenHash: string;
  createdAt: Date;
  revokedAt: Date | null;
  revokedBy: string | null;
}

const candidateLinkSchema = new Schema<CandidateLinkDoc>(
  {
    tokenHash: { type: String, required: true, unique: true },
    courseId: { type: String, required: true },
    courseTitle: { type: String, required: true },
    lessonId: { type: String, required: true },
    quizId: { type: String, required: true },
    quizTitle: { type: String, required: true },
    validUntil: { type: String, default: null },
    maxUses: { type: Number, default: null },
    uses: { type: Number, default: 0 },
    timeLimitMinutes: { type: Number, default: null },
    showResult: { type: Boolean, required: true },
    createdBy: { type: String, required: true },
    createdByName: { type: String, required: true },
    createdAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
    revokedBy: { type: String, default: null },
  },
  { versionKey: false },
);
candidateLinkSchema.index({ createdAt: -1, _id: -1 });
candidateLinkSchema.index({ createdBy: 1, createdAt: -1, _id: -1 });

export const candidateLinkModel = (store: Connection): Model<CandidateLinkDoc> =>
  (store.models.CandidateLink as Model<CandidateLinkDoc>) ??
  store.model<CandidateLinkDoc>('CandidateLink', candidateLinkSchema, 'candidate_links');

/**
 * One start of a link: its `_id` is `<linkId>:<n>`, so the n-th use can be claimed once however many
 * starts race (a unique `_id` is exact on FerretDB, where a conditional `$inc` is not). It also names
 * the transient candidate until the retention sweep deletes them.
 */
export interface CandidateUseDoc {
  _id: string;
  linkId: string;
  userId: string | null;
  startedAt: Date;
  /** The retention sweep deleted the candidate; the use still counts. */
  purged: boolean;
}

const candidateUseSchema = new Schema<CandidateUseDoc>(
  {
    _id: { type: String, required: true },
    linkId: { type: String, required: true, index: true },
    userId: { type: String, default: null },
    startedAt: { type: Date, required: true },
    purged: { type: Boolean, default: false },
  },
  { versionKey: false },
);

candidateUseSchema.index({ purged: 1, startedAt: 1 });

export const candidateUseModel = (store: Connection): Model<CandidateUseDoc> =>
  (store.models.CandidateUse as Model<CandidateUseDoc>) ??
  store.model<CandidateUseDoc>('CandidateUse', candidateUseSchema, 'candidate_uses');
