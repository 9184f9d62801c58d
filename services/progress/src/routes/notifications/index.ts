import { implement, type DeclaredHandler } from '@portal/service-kit';
import { listNotifications, markAllRead, markRead } from '../../commands/notifications';
import type { ProgressModels } from '../../models';
import * as declared from './declarations';

/**
 * A person's own notifications (reminders of assignments, a graded attempt): every signed-in role
 * reads and marks only their own; there is no route to anyone else's.
 */
export function notificationRoutes(models: ProgressModels): DeclaredHandler[] {
  return [
    implement(declared.listNotifications, (ctx, { query }) => listNotifications(models, ctx.state.user.id, query)),
    implement(declared.markAllNotificationsRead, (ctx) => markAllRead(models, ctx.state.user.id)),
    implement(declared.markNotificationRead, (ctx, { params }) => markRead(models, ctx.state.user.id, params.id)),
  ];
}
