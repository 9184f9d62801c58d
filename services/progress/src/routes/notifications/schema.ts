import { z } from 'zod';
import { NOTIFICATION_KINDS, notificationIdParam, type Notification, type NotificationPage } from '@portal/contracts';
import { conforms, EXAMPLE_ID } from '@portal/service-kit';

/** A notification's id in the path. */
export const notificationParams = z.object({
  id: notificationIdParam.meta({ description: 'Идентификатор уведомления', example: EXAMPLE_ID }),
});

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
      page: z.number().int(),
      limit: z.number().int(),
      unread: z.number().int().meta({ description: 'Непрочитанных у этого человека всего' }),
    })
    .meta({ id: 'NotificationPage' }),
);

export const notificationsReadSchema = z.object({ updated: z.number().int() }).meta({ id: 'NotificationsRead' });
