import Router from '@koa/router';
import { notificationIdParam, notificationListQuerySchema } from '@portal/contracts';
import { parse, type ServiceContext } from '@portal/service-kit';
import { listNotifications, markAllRead, markRead } from '../../commands/notifications';
import type { ProgressModels } from '../../models';

/**
 * A person's own notifications (reminders of assignments, a graded attempt): every signed-in role
 * reads and marks only their own; there is no route to anyone else's.
 */
export function notificationsRouter(service: ServiceContext, models: ProgressModels): Router {
  const router = new Router({ prefix: '/api/notifications' });
  router.use(service.authenticate);

  router.get('/', async (ctx) => {
    const query = parse(notificationListQuerySchema, ctx.query);
    ctx.body = await listNotifications(models, ctx.state.user.id, query);
  });

  router.post('/read-all', async (ctx) => {
    ctx.body = await markAllRead(models, ctx.state.user.id);
  });

  router.post('/:id/read', async (ctx) => {
    const id = parse(notificationIdParam, ctx.params.id);
    ctx.body = await markRead(models, ctx.state.user.id, id);
  });

  return router;
}
