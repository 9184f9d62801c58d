import type { Connection, Model } from 'mongoose';
import { contactModel, type ContactDoc } from './contact';
import { organizationModel, type OrganizationDoc } from './organization';

export interface CrmModels {
  organizations: Model<OrganizationDoc>;
  contacts: Model<ContactDoc>;
}

export const crmModels = (store: Connection): CrmModels => ({
  organizations: organizationModel(store),
  contacts: contactModel(store),
});
