import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  NOTIFICATION_KINDS,
  NOTIFICATION_MSG,
  ROLES,
  notificationListQuerySchema,
  type Notification,
  type NotificationPage,
} from '@portal/contracts';
import { idParam, missing, routesOf } from '../route';
import { TAGS } from '../tags';
import { EXAMPLE_ID, conforms, pageFields } from '../schemas';

/** Anyone signed in reads their own notifications; nobody is refused for their role. */
const ownRoute = routesOf(TAGS.progress.name, { access: ROLES, without: [403] });

export const notificationSchema = conforms<Notification>().as(
  z
    .object({
      id: z.string().meta({ example: EXAMPLE_ID }),
      kind: z.enum(NOTIFICATION_KINDS),
      title: z.string().meta({ example: 'Вам назначен курс «Охрана труда»' }),
      text: z.string().meta({ example: 'Пройдите его до 31.12.2026 включительно.' }),
      link: z.string().meta({ description: 'Путь на портале, куда ведёт уведомление', example: `/student/${EXAMPLE_ID}` }),
      read: z.boolean(),
      createdAt: z.string().meta({ format: 'date-time', example: '2026-11-24T09:30:00.000Z' }),
    })
    .meta({ id: 'Notification' }),
);

export const notificationPageSchema = conforms<NotificationPage>().as(
  z
    .object({
      ...pageFields(notificationSchema),
      unread: z.number().int().meta({ description: 'Непрочитанных у этого человека всего' }),
    })
    .meta({ id: 'NotificationPage' }),
);

/** A person's own notifications: reminders of assignments and the result of a graded test. */
export const notificationPaths: ZodOpenApiPathsObject = {
  '/api/notifications': {
    get: ownRoute({
      summary: 'Мои уведомления, новые первыми, и сколько непрочитанных',
      description: 'Только свои: о назначениях курсов, сроках, просрочках и проверке тестов.',
      query: notificationListQuerySchema,
      ok: { status: 200, description: 'Страница уведомлений', schema: notificationPageSchema },
    }),
  },
  '/api/notifications/read-all': {
    post: ownRoute({
      summary: 'Отметить все мои уведомления прочитанными',
      ok: {
        status: 200,
        description: 'Сколько отмечено',
        schema: z.object({ updated: z.number().int() }).meta({ id: 'NotificationsRead' }),
      },
    }),
  },
  '/api/notifications/{id}/read': {
    post: ownRoute({
      summary: 'Отметить уведомление прочитанным',
      params: idParam('id', 'Идентификатор уведомления'),
      ok: { status: 200, description: 'Уведомление', schema: notificationSchema },
      also: missing('Уведомления нет (или оно чужое)', NOTIFICATION_MSG.notFound),
    }),
  },
};
