import type { Context } from 'koa';
import { implement, type AuditPublisher, type DeclaredHandler } from '@portal/service-kit';
import { createContact, deleteContact, updateContact } from '../../commands/contacts';
import type { CrmModels } from '../../models';
import { presentContact } from '../../presenters/organization';
import * as declared from './declarations';

/**
 * Contacts are read with their organization (GET /api/organizations/{id}); here they are changed,
 * each route beside its declaration (`declarations.ts`).
 */
export function contactRoutes(models: CrmModels, audit: AuditPublisher): DeclaredHandler[] {
  const deps = (ctx: Context) => ({ models, audit, actor: ctx.state.user });

  return [
    implement(declared.createContact, async (ctx, { body }) => presentContact(await createContact(deps(ctx), body))),
    implement(declared.updateContact, async (ctx, { params, body, expected }) =>
      presentContact(await updateContact(deps(ctx), params.id, body, expected)),
    ),
    implement(declared.deleteContact, async (ctx, { params }) => {
      await deleteContact(deps(ctx), params.id);
    }),
  ];
}
