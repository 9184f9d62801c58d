import type Router from '@koa/router';
import { declaredRouter, subjectRouter, type ServiceContext } from '@portal/service-kit';
import { removeOrphanContacts } from './commands/contacts';
import { crmModels } from './models';
import { contactRoutes } from './routes/contacts';
import { internalRouter } from './routes/internal';
import { organizationRoutes } from './routes/organizations';
import { crmSubjects } from './subjects';

export function crmRouters(ctx: ServiceContext): Router[] {
  const models = crmModels(ctx.store);
  return [
    declaredRouter(ctx, [...organizationRoutes(models, ctx.audit), ...contactRoutes(models, ctx.audit)]),
    internalRouter(ctx, models),
    subjectRouter(ctx.config.INTERNAL_TOKEN, crmSubjects(models)),
  ];
}

/** Work at start: finish any organization delete that was interrupted before its contacts went. */
export async function crmOnStart(ctx: ServiceContext): Promise<void> {
  await removeOrphanContacts(crmModels(ctx.store), ctx.logger).catch((err: Error) =>
    ctx.logger.warn({ err: err.message }, 'orphan contact sweep failed'),
  );
}
