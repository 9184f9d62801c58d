/**
 * The CRM service's public API as declarations: what the gateway documents and the security matrix
 * checks. Data only (no store, no router), so either can import it without running the service.
 */
import type { RouteDeclaration } from '@portal/service-kit';
import { createContact, deleteContact, updateContact } from './contacts/declarations';
import {
  createOrganization,
  deleteOrganization,
  exportOrganizations,
  getOrganization,
  listOrganizations,
  updateOrganization,
} from './organizations/declarations';

/** In the document's order; `/api/organizations/export` before `/api/organizations/:id`, as the router matches them. */
export const crmApi: readonly RouteDeclaration[] = [
  exportOrganizations,
  listOrganizations,
  createOrganization,
  getOrganization,
  updateOrganization,
  deleteOrganization,
  createContact,
  updateContact,
  deleteContact,
];
