import { randomBytes } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import { SUBJECT_EXPORT_LIMIT, type SubjectHandlers } from '@portal/service-kit';
import type { ApplicationDoc } from '../models/application';
import type { ConsentDoc } from '../models/consent';
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
      const [profile, given, filed, asked, sessions] = await Promise.all([
        users.find({ _id: userId }).select({ passwordHash: 0 }).lean(),
        consents.find({ userId }, null, limited).lean(),
        applications.find({ userId }, null, limited).lean(),
        requests.find({ userId }, null, limited).lean(),
        sessionModel(store).find({ userId }, { createdAt: 1, expiresAt: 1 }, limited).lean(),
      ]);
      return { Профиль: profile, Согласия: given, 'Заявки на роли': filed, 'Запросы о данных': asked, Сеансы: sessions };
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
        },
      );
      const sessions = await endSessionsOf(store, userId);
      // The browser and address a consent was given from identify the person too.
      const given = await consents.updateMany({ userId }, { $set: { userAgent: '', address: '' } });
      return { Профиль: changed.modifiedCount, Сеансы: sessions, Согласия: given.modifiedCount };
    },
  };
}
