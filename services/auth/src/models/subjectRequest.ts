import { Schema, type Connection, type Model, type Types } from 'mongoose';

export const SUBJECT_REQUEST_KINDS = ['export', 'anonymise'] as const;
export type SubjectRequestKind = (typeof SUBJECT_REQUEST_KINDS)[number];

/**
 * A data-subject request (152-FZ, art. 14 and 21): a person's data to be exported or anonymised.
 * A withdrawn consent files one by itself; an ADMIN carries it out, and it is kept with its act.
 */
export interface SubjectRequestDoc {
  _id: Types.ObjectId;
  userId: string;
  kind: SubjectRequestKind;
  /** Why it was filed: the person withdrew their consent, or an ADMIN filed it. */
  reason: 'withdrawal' | 'admin';
  status: 'open' | 'done';
  filedBy: string;
  completedBy: string | null;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const subjectRequestSchema = new Schema<SubjectRequestDoc>(
  {
    userId: { type: String, required: true, index: true },
    kind: { type: String, enum: SUBJECT_REQUEST_KINDS, required: true },
    reason: { type: String, enum: ['withdrawal', 'admin'], required: true },
    status: { type: String, enum: ['open', 'done'], default: 'open' },
    filedBy: { type: String, required: true },
    completedBy: { type: String, default: null },
    completedAt: { type: Date, default: null },
  },
  { timestamps: true },
);
// The ADMIN's list: open ones, oldest first.
subjectRequestSchema.index({ status: 1, createdAt: 1, _id: 1 });

export const subjectRequestModel = (store: Connection): Model<SubjectRequestDoc> =>
  (store.models.SubjectRequest as Model<SubjectRequestDoc>) ??
  store.model<SubjectRequestDoc>('SubjectRequest', subjectRequestSchema, 'subject_requests');
