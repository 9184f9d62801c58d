import Router from '@koa/router';
import type { CrmStats, PeriodChange } from '@portal/contracts';
import { op, requireInternal, type ServiceContext } from '@portal/service-kit';
import type { Model } from 'mongoose';
import type { CrmModels } from '../../models';

const DAY = 86_400_000;

// Records created in the last 30 days against the 30 before them.
async function createdChange<T>(model: Model<T>, now: number): Promise<PeriodChange> {
  const [last30, prev30] = await Promise.all([
    model.countDocuments({ createdAt: op({ $gte: new Date(now - 30 * DAY) }) }),
    model.countDocuments({ createdAt: op({ $gte: new Date(now - 60 * DAY), $lt: new Date(now - 30 * DAY) }) }),
  ]);
  return { last30, prev30 };
}

/** Routes for other services only (the gateway's dashboard); the gateway never exposes /internal. */
export function internalRouter(service: ServiceContext, models: CrmModels): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));

  router.get('/stats', async (ctx) => {
    const now = Date.now();
    const { organizations, contacts } = models;
    const [orgCount, contactCount, orgChange, contactChange] = await Promise.all([
      organizations.countDocuments(),
      contacts.countDocuments(),
      createdChange(organizations, now),
      createdChange(contacts, now),
    ]);
    const body: CrmStats = {
      organizations: orgCount,
      contacts: contactCount,
      change: { organizations: orgChange, contacts: contactChange },
    };
    ctx.body = body;
  });

  return router;
}
