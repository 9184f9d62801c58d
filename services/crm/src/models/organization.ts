import { Schema, type Connection, type Model, type Types } from 'mongoose';

export const ORG_STATUSES = ['ACTIVE', 'INACTIVE', 'PENDING'] as const;
export type OrgStatus = (typeof ORG_STATUSES)[number];

export interface OrganizationDoc {
  _id: Types.ObjectId;
  name: string;
  inn: string;
  site?: string;
  status: OrgStatus;
  createdAt: Date;
  updatedAt: Date;
}

const organizationSchema = new Schema<OrganizationDoc>(
  {
    name: { type: String, required: true, trim: true },
    inn: { type: String, required: true, trim: true, unique: true },
    site: { type: String, trim: true },
    status: { type: String, enum: ORG_STATUSES, default: 'ACTIVE' },
  },
  { timestamps: true },
);

export const organizationModel = (store: Connection): Model<OrganizationDoc> =>
  (store.models.Organization as Model<OrganizationDoc>) ?? store.model<OrganizationDoc>('Organization', organizationSchema, 'organizations');
