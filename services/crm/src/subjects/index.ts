import { SUBJECT_EXPORT_LIMIT, type SubjectData, type SubjectHandlers } from '@portal/service-kit';
import type { CrmModels } from '../models';

const CONTACTS = 'Контакты организаций';

/**
 * A person may also be an organization's contact, found by their email. Forgetting them keeps the
 * contact's place in the organization (the count stays right) without a name, an email or a phone.
 */
export function crmSubjects(models: CrmModels): SubjectHandlers {
  const contactsOf = (email: string) =>
    email ? models.contacts.find({ email: email.toLowerCase() }).limit(SUBJECT_EXPORT_LIMIT).lean() : Promise.resolve([]);
  return {
    async collect(_userId, { email }): Promise<SubjectData> {
      return { [CONTACTS]: await contactsOf(email) };
    },
    async anonymise(userId, { alias, email }): Promise<Record<string, number>> {
      const contacts = await contactsOf(email);
      for (const c of contacts)
        await models.contacts.updateOne(
          { _id: c._id },
          { $set: { fullName: alias, email: `deleted-${userId}-${String(c._id)}@anonymised.invalid`, phone: null, role: null } },
        );
      return { [CONTACTS]: contacts.length };
    },
  };
}
