import Router from '@koa/router';
import { contactCreateSchema, contactUpdateSchema } from '@portal/contracts';
import { parse, takeExpectedVersion, type ServiceContext } from '@portal/service-kit';
import { createContact, deleteContact, updateContact } from '../../commands/contacts';
import type { CrmModels } from '../../models';
import { authorizeCrm } from '../../policies/crm';
import { presentContact } from '../../presenters/organization';

/** Contacts are read with their organization (GET /api/organizations/{id}); here they are changed. */
export function contactsRouter(service: ServiceContext, models: CrmModels): Router {
  const router = new Router({ prefix: '/api/contacts' });
  const { authenticate, audit } = service;

  router.post('/', authenticate, authorizeCrm, async (ctx) => {
    const input = parse(contactCreateSchema, ctx.request.body);
    const contact = await createContact({ models, audit, actor: ctx.state.user }, input);
    ctx.status = 201;
    ctx.body = presentContact(contact);
  });

  router.patch('/:id', authenticate, authorizeCrm, async (ctx) => {
    const expected = takeExpectedVersion(ctx);
    const input = parse(contactUpdateSchema, ctx.request.body);
    const contact = await updateContact({ models, audit, actor: ctx.state.user }, ctx.params.id, input, expected);
    ctx.body = presentContact(contact);
  });

  router.delete('/:id', authenticate, authorizeCrm, async (ctx) => {
    await deleteContact({ models, audit, actor: ctx.state.user }, ctx.params.id);
    ctx.status = 204;
  });

  return router;
}
