import { NOTIFICATION_MSG, notificationListQuerySchema } from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { ownNotifications } from '../../policies/notifications';
import { notificationPageSchema, notificationParams, notificationSchema, notificationsReadSchema } from './schema';

/** A person's own notifications: reminders of assignments and the result of a graded test. */
export const listNotifications = defineRoute({
  method: 'GET',
  path: '/api/notifications',
  operationId: 'listNotifications',
  summary: 'Мои уведомления, новые первыми, и сколько непрочитанных',
  description: 'Только свои: о назначениях курсов, сроках, просрочках и проверке тестов.',
  access: ownNotifications,
  query: notificationListQuerySchema,
  ok: { status: 200, description: 'Страница уведомлений', schema: notificationPageSchema },
  without: [403],
});

export const markAllNotificationsRead = defineRoute({
  method: 'POST',
  path: '/api/notifications/read-all',
  operationId: 'markAllNotificationsRead',
  summary: 'Отметить все мои уведомления прочитанными',
  access: ownNotifications,
  ok: { status: 200, description: 'Сколько отмечено', schema: notificationsReadSchema },
  without: [403],
});

export const markNotificationRead = defineRoute({
  method: 'POST',
  path: '/api/notifications/:id/read',
  operationId: 'markNotificationRead',
  summary: 'Отметить уведомление прочитанным',
  access: ownNotifications,
  params: notificationParams,
  ok: { status: 200, description: 'Уведомление', schema: notificationSchema },
  also: { 404: { description: 'Уведомления нет (или оно чужое)', example: NOTIFICATION_MSG.notFound } },
  without: [403],
});
