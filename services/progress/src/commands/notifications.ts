import { isValidObjectId } from 'mongoose';
import {
  NOTIFICATION_MSG,
  NOTIFICATION_UNREAD_CAP,
  noteLine,
  type Notification,
  type NotificationKind,
  type NotificationNote,
  type NotificationPage,
} from '@portal/contracts';
import { clock, composeMail, notFound, readPage, type Logger, type Mailer } from '@portal/service-kit';
import type { ProgressModels } from '../models';
import type { NotificationDoc } from '../models/notification';

/** What sending a notification needs: the store, the mailer and the portal's address for the mail's link. */
export interface NotifyDeps {
  models: ProgressModels;
  mailer: Mailer;
  /** The absolute link of a portal path (PUBLIC_URL). */
  portalLink: (path: string) => string;
  logger: Logger;
}

export interface NotificationDraft {
  userId: string;
  /** Where the mail goes; none, no mail. */
  email?: string;
  /** Whom the mail greets; none, «Здравствуйте!». */
  fullName?: string;
  kind: NotificationKind;
  /** Unique per reason: the same key twice is one notification. */
  key: string;
  title: string;
  text: string;
  /** Someone's own words (the curator's message): its own paragraph, marked as theirs. */
  note?: NotificationNote;
  link: string;
}

/** What the bell shows: the text, and the note on a line of its own. */
const bellText = (d: NotificationDraft) => (d.note ? `${d.text}\n\n${noteLine(d.note)}` : d.text);

const DUPLICATE_KEY = 11000;
type BulkWriteFailure = {
  writeErrors?: Array<{ index: number; code: number; errmsg?: string }> | { index: number; code: number };
};

/**
 * Stores the notifications of a batch, each at most once (the unique key), in one write; mails the
 * ones this call stored (not those another replica or an earlier run already had). Returns them.
 */
export async function notifyOnce(deps: NotifyDeps, drafts: NotificationDraft[]): Promise<NotificationDraft[]> {
  if (!drafts.length) return [];
  const now = clock.now();
  const fresh = drafts.map(() => true);
  try {
    await deps.models.notifications.bulkWrite(
      drafts.map((d) => ({
        insertOne: {
          document: {
            userId: d.userId,
            kind: d.kind,
            key: d.key,
            title: d.title,
            text: bellText(d),
            link: d.link,
            readAt: null,
            createdAt: now,
          },
        },
      })),
      { ordered: false, throwOnValidationError: true },
    );
  } catch (err) {
    const raw = (err as BulkWriteFailure).writeErrors;
    if (!raw) throw err;
    for (const w of Array.isArray(raw) ? raw : [raw]) {
      if (w.code !== DUPLICATE_KEY) throw err;
      fresh[w.index] = false;
    }
  }
  const stored = drafts.filter((_, i) => fresh[i]);
  if (deps.mailer.enabled)
    for (const d of stored)
      if (d.email)
        void deps.mailer.send({
          key: `notification|${d.key}`,
          to: d.email,
          subject: d.title,
          ...composeMail({
            greetingName: d.fullName,
            paragraphs: [d.text],
            quote: d.note,
            link: { label: 'Открыть на портале', url: deps.portalLink(d.link) },
          }),
        });
  return stored;
}

export const presentNotification = (doc: NotificationDoc): Notification => ({
  id: String(doc._id),
  kind: doc.kind,
  title: doc.title,
  text: doc.text,
  link: doc.link,
  read: !!doc.readAt,
  createdAt: doc.createdAt.toISOString(),
});

/** One person's notifications, newest first, and how many of theirs are unread: three indexed reads. */
export async function listNotifications(
  models: ProgressModels,
  userId: string,
  query: { page: number; limit: number },
): Promise<NotificationPage> {
  const [{ rows, ...counted }, unread] = await Promise.all([
    readPage(models.notifications, { userId }, query, { createdAt: -1, _id: -1 }),
    models.notifications.countDocuments({ userId, readAt: null }, { limit: NOTIFICATION_UNREAD_CAP }),
  ]);
  return { data: rows.map(presentNotification), ...counted, unread, page: query.page, limit: query.limit };
}

/** Marks one of the person's own notifications read; someone else's is «not found», as a missing one. */
export async function markRead(models: ProgressModels, userId: string, id: string): Promise<Notification> {
  const doc = isValidObjectId(id) ? await models.notifications.findOne({ _id: id, userId }).lean<NotificationDoc>() : null;
  if (!doc) throw notFound(NOTIFICATION_MSG.notFound);
  if (doc.readAt) return presentNotification(doc);
  const readAt = clock.now();
  await models.notifications.updateOne({ _id: doc._id, readAt: null }, { $set: { readAt } });
  return presentNotification({ ...doc, readAt });
}

/** Marks every unread notification of the person read (one write). */
export async function markAllRead(models: ProgressModels, userId: string): Promise<{ updated: number }> {
  const result = await models.notifications.updateMany({ userId, readAt: null }, { $set: { readAt: clock.now() } });
  return { updated: result.modifiedCount };
}
