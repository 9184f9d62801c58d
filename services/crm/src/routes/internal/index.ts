import Router from '@koa/router';
import type { CrmStats } from '@portal/contracts';
import { countFigure, lowerBoundsOf, requireInternal, type ServiceContext } from '@portal/service-kit';
import type { CrmModels } from '../../models';

/** Routes for other services only (the gateway's dashboard); the gateway never exposes /internal. */
export function internalRouter(service: ServiceContext, models: CrmModels): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));

  /** Organizations and contacts, and how many were created in the last 30 days and the 30 before (bounded counts). */
  router.get('/stats', async (ctx) => {
    const now = Date.now();
    const [organizations, contacts] = await Promise.all([
      countFigure(models.organizations, {}, 'createdAt', now),
      countFigure(models.contacts, {}, 'createdAt', now),
    ]);
    const body: CrmStats = {
      organizations: organizations.count,
      contacts: contacts.count,
      change: { organizations: organizations.change, contacts: contacts.change },
      ...lowerBoundsOf({ organizations, contacts }),
    };
    ctx.body = body;
  });

  return router;
}
