import { Schema, type InferRawDocType } from 'mongoose';
import { storeModel } from '@portal/service-kit';

const consentFields = {
  userId: { type: String, required: true },
  version: { type: String, required: true },
  acceptedAt: { type: Date, required: true },
  // The client's address as the gateway saw it, and its browser.
  address: { type: String, default: '' },
  userAgent: { type: String, default: '' },
  withdrawnAt: { type: Date, default: null },
};

/**
 * One consent to the processing of personal data: who, to which version of the text, when and from
 * which address (152-FZ asks the operator to prove it). Never changed but for its withdrawal.
 */
export type ConsentDoc = InferRawDocType<typeof consentFields>;

const consentSchema = new Schema<ConsentDoc>(consentFields, { versionKey: false });
// A person's consents, latest first (an equality FerretDB pushes down; a person has a few).
consentSchema.index({ userId: 1, acceptedAt: -1 });

export const consentModel = storeModel<ConsentDoc>('Consent', consentSchema, 'consents');
