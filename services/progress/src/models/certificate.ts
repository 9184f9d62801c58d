import { Schema, type Types } from 'mongoose';
import { storeModel } from '@portal/service-kit';
import type { Certificate } from '@portal/contracts';

/**
 * An issued certificate, with its PDF: kept in the store (not on a replica's disk), so any replica
 * serves it and a later change of the person's name or the course never changes what was issued.
 */
export interface CertificateDoc extends Omit<Certificate, 'completedAt' | 'issuedAt'> {
  _id: Types.ObjectId;
  completedAt: Date;
  issuedAt: Date;
  pdf: Buffer;
}

const certificateSchema = new Schema<CertificateDoc>(
  {
    number: { type: String, required: true },
    userId: { type: String, required: true },
    fullName: { type: String, required: true },
    courseId: { type: String, required: true },
    courseTitle: { type: String, required: true },
    hours: { type: Number, default: 0 },
    completedAt: { type: Date, required: true },
    issuedAt: { type: Date, required: true },
    pdf: { type: Buffer, required: true },
  },
  { versionKey: false },
);
certificateSchema.index({ number: 1 }, { unique: true });
// One certificate per completion: asking twice gives the same one.
certificateSchema.index({ userId: 1, courseId: 1, completedAt: 1 }, { unique: true });
certificateSchema.index({ userId: 1, issuedAt: -1 });

export const certificateModel = storeModel<CertificateDoc>('Certificate', certificateSchema, 'certificates');
