import { Schema, type Types } from 'mongoose';
import { storeModel } from '@portal/service-kit';
import { NOTIFICATION_KINDS, type Notification } from '@portal/contracts';

/**
 * One in-app notification of one person. `key` is unique: a reminder is
 * `<kind>|<assignmentId>|<userId>|<due day>`, so two replicas, or a run made again, that reach the
 * same person for the same reason insert it once, and only the insert that succeeded sends the mail.
 */
export interface NotificationDoc extends Pick<Notification, 'kind' | 'title' | 'text' | 'link'> {
  _id: Types.ObjectId;
  userId: string;
  key: string;
  readAt: Date | null;
  createdAt: Date;
}

const notificationSchema = new Schema<NotificationDoc>(
  {
    userId: { type: String, required: true },
    kind: { type: String, enum: NOTIFICATION_KINDS, required: true },
    key: { type: String, required: true },
    title: { type: String, required: true },
    text: { type: String, default: '' },
    link: { type: String, default: '' },
    readAt: { type: Date, default: null },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
notificationSchema.index({ key: 1 }, { unique: true });
// A person's list, newest first, and their unread count.
notificationSchema.index({ userId: 1, createdAt: -1, _id: -1 });
notificationSchema.index({ userId: 1, readAt: 1 });

export const notificationModel = storeModel<NotificationDoc>('Notification', notificationSchema, 'notifications');
