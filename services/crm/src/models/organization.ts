import { Schema, type Types } from 'mongoose';
import { bumpOnWrite, indexNewestFirst, storeModel, versionPlugin } from '@portal/service-kit';
import { DEFAULT_ORG_STATUS, ORG_STATUSES, type OrgStatus } from '@portal/contracts';

export interface OrganizationDoc {
  _id: Types.ObjectId;
  name: string;
  inn: string;
  kpp?: string | null;
  ogrn?: string | null;
  site?: string | null;
  status: OrgStatus;
  /** Optimistic concurrency (versionPlugin). */
  version?: number;
  createdAt: Date;
  updatedAt: Date;
}

const organizationSchema = new Schema<OrganizationDoc>(
  {
    name: { type: String, required: true, trim: true },
    // Required, so the unique index holds on FerretDB as on MongoDB (two missing values never meet).
    inn: { type: String, required: true, trim: true, unique: true },
    kpp: { type: String, trim: true, default: null },
    ogrn: { type: String, trim: true, default: null },
    site: { type: String, trim: true, default: null },
    status: { type: String, enum: ORG_STATUSES, default: DEFAULT_ORG_STATUS },
  },
  { timestamps: true },
);
organizationSchema.plugin(versionPlugin);
organizationSchema.index({ createdAt: -1 });
// The list's order, alone and behind its status filter.
indexNewestFirst(organizationSchema, ['status']);

/**
 * The version of the organization list's pages (routes/organizations): every write of an
 * organization or a contact moves it, since a page shows each organization's count of contacts.
 */
export const ORGANIZATION_LIST_VERSION = { name: 'organization_list' } as const;
bumpOnWrite(organizationSchema, ORGANIZATION_LIST_VERSION.name);

export const organizationModel = storeModel<OrganizationDoc>('Organization', organizationSchema, 'organizations');
