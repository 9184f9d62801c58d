import { Schema, type Connection, type Model, type Types } from 'mongoose';

/**
 * One consent to the processing of personal data: who, to which version of the text, when and from
 * which address (152-FZ asks the operator to prove it). Never changed but for its withdrawal.
 */
export interface ConsentDoc {
  _id: Types.ObjectId;
  userId: string;
  version: string;
  acceptedAt: Date;
  /** The client's address as the gateway saw it, and its browser. */
  address: string;
  userAgent: string;
  withdrawnAt: Date | null;
}

const consentSchema = new Schema<ConsentDoc>(
  {
    userId: { type: String, required: true },
    version: { type: String, required: true },
    acceptedAt: { type: Date, required: true },
    address: { type: String, default: '' },
    userAgent: { type: String, default: '' },
    withdrawnAt: { type: Date, default: null },
  },
  { versionKey: false },
);
// A person's consents, latest first (an equality FerretDB pushes down; a person has a few).
consentSchema.index({ userId: 1, acceptedAt: -1 });

export const consentModel = (store: Connection): Model<ConsentDoc> =>
  (store.models.Consent as Model<ConsentDoc>) ?? store.model<ConsentDoc>('Consent', consentSchema, 'consents');
