import { Schema, type InferRawDocType, type Types } from 'mongoose';
import type { CandidateLink } from '@portal/contracts';
import { indexNewestFirst, storeModel } from '@portal/service-kit';

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
// Staff's list, newest first: everyone's for an ADMIN, otherwise one's own (createdBy).
indexNewestFirst(candidateLinkSchema, ['createdBy']);

export const candidateLinkModel = storeModel<CandidateLinkDoc>('CandidateLink', candidateLinkSchema, 'candidate_links');

const candidateUseFields = {
  _id: { type: String, required: true },
  linkId: { type: String, required: true, index: true },
  userId: { type: String, default: null },
  startedAt: { type: Date, required: true },
  // The retention sweep deleted the candidate; the use still counts.
  purged: { type: Boolean, default: false },
};

/**
 * One start of a link: its `_id` is `<linkId>:<n>`, so the n-th use can be claimed once however many
 * starts race (a unique `_id` is exact on FerretDB, where a conditional `$inc` is not). It also names
 * the transient candidate until the retention sweep deletes them.
 */
export type CandidateUseDoc = InferRawDocType<typeof candidateUseFields>;

const candidateUseSchema = new Schema<CandidateUseDoc>(candidateUseFields, { versionKey: false });
candidateUseSchema.index({ purged: 1, startedAt: 1 });

export const candidateUseModel = storeModel<CandidateUseDoc>('CandidateUse', candidateUseSchema, 'candidate_uses');
