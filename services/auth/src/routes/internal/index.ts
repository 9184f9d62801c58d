import Router from '@koa/router';
import type { Model } from 'mongoose';
import { isValidObjectId } from 'mongoose';
import { LEARNER_ROLES } from '@portal/contracts';
import { notFound, op, requireInternal, type ServiceContext } from '@portal/service-kit';
import type { UserDoc } from '../../models/user';
import { toPrincipal } from '../../presenters/user';

const DAY = 86_400_000;

/** Routes for other services only; the gateway never exposes /internal. */
export function internalRouter(service: ServiceContext, users: Model<UserDoc>): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));

  router.get('/users/:id', async (ctx) => {
    const user = isValidObjectId(ctx.params.id) ? await users.findById(ctx.params.id).lean<UserDoc>() : null;
    if (!user) throw notFound();
    ctx.body = toPrincipal(user);
  });

  router.get('/stats', async (ctx) => {
    const now = Date.now();
    const learners = { role: op({ $in: [...LEARNER_ROLES] }) };
    const [totalStudents, last30, prev30] = await Promise.all([
      users.countDocuments(learners),
      users.countDocuments({ ...learners, createdAt: op({ $gte: new Date(now - 30 * DAY) }) }),
      users.countDocuments({ ...learners, createdAt: op({ $gte: new Date(now - 60 * DAY), $lt: new Date(now - 30 * DAY) }) }),
    ]);
    ctx.body = { totalStudents, newStudents: { last30, prev30 } };
  });

  return router;
}
