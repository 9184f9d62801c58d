import { Schema, type Types } from 'mongoose';
import { storeModel } from '@portal/service-kit';
import { APPLICATION_STATUSES, ROLES, type RoleApplication } from '@portal/contracts';

/** An application for a staff role filed by a self-registration; an ADMIN approves or declines it. */
export interface ApplicationDoc extends Pick<RoleApplication, 'role' | 'status'> {
  _id: Types.ObjectId;
  userId: string;
  decidedBy: string | null;
  decidedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const applicationSchema = new Schema<ApplicationDoc>(
  {
    userId: { type: String, required: true, index: true },
    role: { type: String, enum: ROLES, required: true },
    status: { type: String, enum: APPLICATION_STATUSES, required: true, default: 'pending' },
    decidedBy: { type: String, default: null },
    decidedAt: { type: Date, default: null },
  },
  { timestamps: true },
);
// The directory's list: one status, oldest first (the longest waiting on top), _id breaking ties.
applicationSchema.index({ status: 1, createdAt: 1, _id: 1 });

export const applicationModel = storeModel<ApplicationDoc>('Application', applicationSchema, 'applications');
