import Router from '@koa/router';
import { contactCreateSchema, contactUpdateSchema } from '@portal/contracts';
import { writeRoutes, type ServiceContext } from '@portal/service-kit';
import { createContact, deleteContact, updateContact } from '../../commands/contacts';
import type { CrmModels } from '../../models';
import { authorizeCrm } from '../../policies/crm';
import { presentContact } from '../../presenters/organization';

/** Contacts are read with their organization (GET /api/organizations/{id}); here they are changed. */
export function contactsRouter(service: ServiceContext, models: CrmModels): Router {
  const router = new Router({ prefix: '/api/contacts' });
  const { authenticate, audit } = service;

  writeRoutes(router, [authenticate, authorizeCrm], (ctx) => ({ models, audit, actor: ctx.state.user }), {
    create: { schema: contactCreateSchema, run: createContact, present: presentContact },
    update: { schema: contactUpdateSchema, run: updateContact, present: presentContact },
    remove: deleteContact,
  });

  return router;
}
