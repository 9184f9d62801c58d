import { Schema, type Types } from 'mongoose';
import { SUBJECT_REQUEST_KINDS, SUBJECT_REQUEST_STATUSES, type SubjectRequest } from '@portal/contracts';
import { indexNewestFirst, storeModel } from '@portal/service-kit';

/**
 * A data-subject request (152-FZ, art. 14 and 21): a person's data to be exported or anonymised.
 * A withdrawn consent files one by itself; an ADMIN files and carries them out. Kept with its act.
 * The person's name and email are copied in, so the list is one query (anonymisation rewrites them).
 */
export interface SubjectRequestDoc extends Pick<
  SubjectRequest,
  'kind' | 'reason' | 'status' | 'filedBy' | 'completedBy' | 'summary'
> {
  _id: Types.ObjectId;
  userId: string;
  userName: string;
  userEmail: string;
  completedAt: Date | null;
  act: Buffer | null;
  /** The act's human number («2026-000123»), given once from a counter of the year. */
  actNumber?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const subjectRequestSchema = new Schema<SubjectRequestDoc>(
  {
    userId: { type: String, required: true, index: true },
    userName: { type: String, default: '' },
    userEmail: { type: String, default: '' },
    kind: { type: String, enum: SUBJECT_REQUEST_KINDS, required: true },
    reason: { type: String, enum: ['withdrawal', 'admin'], required: true },
    status: { type: String, enum: SUBJECT_REQUEST_STATUSES, default: 'open' },
    filedBy: { type: String, required: true },
    completedBy: { type: String, default: null },
    completedAt: { type: Date, default: null },
    summary: { type: Schema.Types.Mixed, default: null },
    act: { type: Buffer, default: null },
    actNumber: { type: String, default: null },
  },
  { timestamps: true },
);
// The ADMIN's list: newest first, alone or behind its status filter.
indexNewestFirst(subjectRequestSchema, ['status']);

export const subjectRequestModel = storeModel<SubjectRequestDoc>('SubjectRequest', subjectRequestSchema, 'subject_requests');
