import { Schema, type Types } from 'mongoose';
import { bumpOnWrite, storeModel, versionPlugin } from '@portal/service-kit';
import { ORGANIZATION_LIST_VERSION } from './organization';

export interface ContactDoc {
  _id: Types.ObjectId;
  orgId: Types.ObjectId;
  fullName: string;
  email: string;
  phone?: string | null;
  /** Job title. */
  role?: string | null;
  /** Optimistic concurrency (versionPlugin). */
  version?: number;
  createdAt: Date;
  updatedAt: Date;
}

const contactSchema = new Schema<ContactDoc>(
  {
    orgId: { type: Schema.Types.ObjectId, required: true, index: true },
    fullName: { type: String, required: true, trim: true },
    email: { type: String, required: true, trim: true, lowercase: true },
    phone: { type: String, trim: true, default: null },
    role: { type: String, trim: true, default: null },
  },
  { timestamps: true },
);
// One person appears once per organization; the same email may belong to contacts of several.
contactSchema.index({ orgId: 1, email: 1 }, { unique: true });
contactSchema.plugin(versionPlugin);
contactSchema.index({ createdAt: -1 });

// The organization list counts each organization's contacts.
bumpOnWrite(contactSchema, ORGANIZATION_LIST_VERSION.name);

export const contactModel = storeModel<ContactDoc>('Contact', contactSchema, 'contacts');
