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
import { idParam, missing, route } from '../route';
import { TAGS } from '../tags';
import { EXAMPLE_ID, conforms } from '../schemas';

const tag = TAGS.progress.name;

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
      data: z.array(notificationSchema),
      total: z.number().int(),
      unread: z.number().int().meta({ description: 'Непрочитанных у этого человека всего' }),
      page: z.number().int(),
      limit: z.number().int(),
    })
    .meta({ id: 'NotificationPage' }),
);

/** A person's own notifications: reminders of assignments and the result of a graded test. */
export const notificationPaths: ZodOpenApiPathsObject = {
  '/api/notifications': {
    get: route(tag, {
      summary: 'Мои уведомления, новые первыми, и сколько непрочитанных',
      description: 'Только свои: о назначениях курсов, сроках, просрочках и проверке тестов.',
      access: ROLES,
      query: notificationListQuerySchema,
      ok: { status: 200, description: 'Страница уведомлений', schema: notificationPageSchema },
      without: [403],
    }),
  },
  '/api/notifications/read-all': {
    post: route(tag, {
      summary: 'Отметить все мои уведомления прочитанными',
      access: ROLES,
      ok: {
        status: 200,
        description: 'Сколько отмечено',
        schema: z.object({ updated: z.number().int() }).meta({ id: 'NotificationsRead' }),
      },
      without: [403],
    }),
  },
  '/api/notifications/{id}/read': {
    post: route(tag, {
      summary: 'Отметить уведомление прочитанным',
      access: ROLES,
      params: idParam('id', 'Идентификатор уведомления'),
      ok: { status: 200, description: 'Уведомление', schema: notificationSchema },
      also: missing('Уведомления нет (или оно чужое)', NOTIFICATION_MSG.notFound),
      without: [403],
    }),
  },
};
