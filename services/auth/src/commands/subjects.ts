import { randomBytes } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import { SUBJECT_EXPORT_LIMIT, type SubjectHandlers } from '@portal/service-kit';
import type { ApplicationDoc } from '../models/application';
import type { ConsentDoc } from '../models/consent';
import { directoryOutcomeModel } from '../directory/models';
import { sessionModel } from '../models/session';
import type { SubjectRequestDoc } from '../models/subjectRequest';
import type { UserDoc } from '../models/user';
import { hashPassword } from '../passwords';
import { endSessionsOf } from './sessions';

export interface SubjectModels {
  store: Connection;
  users: Model<UserDoc>;
  consents: Model<ConsentDoc>;
  applications: Model<ApplicationDoc>;
  requests: Model<SubjectRequestDoc>;
}

/** The address an anonymised account keeps (unique, and no one's mailbox: `.invalid` never resolves). */
export const anonymisedEmail = (userId: string) => `deleted-${userId}@anonymised.invalid`;

/** What the auth service holds about a person, and how it forgets them. */
export function authSubjects({ store, users, consents, applications, requests }: SubjectModels): SubjectHandlers {
  const limited = { limit: SUBJECT_EXPORT_LIMIT };
  return {
    async collect(userId) {
      const [profile, given, filed, asked, sessions, synced] = await Promise.all([
        users.find({ _id: userId }).select({ passwordHash: 0 }).lean(),
        consents.find({ userId }, null, limited).lean(),
        applications.find({ userId }, null, limited).lean(),
        requests.find({ userId }, null, limited).lean(),
        sessionModel(store).find({ userId }, { createdAt: 1, expiresAt: 1 }, limited).lean(),
        directoryOutcomeModel(store).find({ userId }, null, limited).lean(),
      ]);
      return {
        Профиль: profile,
        Согласия: given,
        'Заявки на роли': filed,
        'Запросы о данных': asked,
        Сеансы: sessions,
        'Синхронизация с каталогом': synced,
      };
    },

    /**
     * The account stays (results refer to it) under the alias, with an address that is no one's and
     * a password no one knows; every session ends. Consents and requests keep only the id.
     */
    async anonymise(userId, { alias }) {
      const changed = await users.updateOne(
        { _id: userId },
        {
          $set: {
            fullName: alias,
            lastName: alias,
            firstName: '',
            middleName: '',
            email: anonymisedEmail(userId),
            department: '',
            position: '',
            // A candidate «по ссылке» gave an address of their own.
            candidateEmail: '',
            passwordHash: await hashPassword(randomBytes(24).toString('base64url')),
          },
          // The provider's account no longer leads here: a later corporate sign-in is a new person.
          // Nor does the directory's entry: a later directory sync makes a new account, never renames this one back.
          $unset: { identities: 1, directory: 1 },
        },
      );
      const sessions = await endSessionsOf(store, userId);
      // The browser and address a consent was given from identify the person too.
      const given = await consents.updateMany({ userId }, { $set: { userAgent: '', address: '' } });
      // The directory sync's runs listed them by name and email.
      const synced = await directoryOutcomeModel(store).updateMany(
        { userId },
        { $set: { fullName: alias, email: anonymisedEmail(userId), department: '', position: '', reason: '' } },
      );
      return {
        Профиль: changed.modifiedCount,
        Сеансы: sessions,
        Согласия: given.modifiedCount,
        'Синхронизация с каталогом': synced.modifiedCount,
      };
    },
  };
}
