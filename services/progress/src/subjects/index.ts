import { SUBJECT_EXPORT_LIMIT, type SubjectHandlers } from '@portal/service-kit';
import { renderCertificate } from '../certificates/pdf';
import type { ProgressModels } from '../models';

/**
 * What the progress service holds about a person (their lessons, courses, quiz attempts with every
 * answer, assignments, certificates, notifications), and how it forgets them: results and statistics stay, under
 * the alias; a certificate is issued again in the alias's name, so its PDF names no one.
 */
export function progressSubjects(models: ProgressModels, publicUrl: string): SubjectHandlers {
  const limited = { limit: SUBJECT_EXPORT_LIMIT };
  return {
    async collect(userId) {
      const [lessons, courses, attempts, assigned, extensions, certificates, notifications, links] = await Promise.all([
        models.completions.find({ userId }, null, limited).lean(),
        models.courseCompletions.find({ userId }, null, limited).lean(),
        models.attempts.find({ userId }, null, limited).lean(),
        models.assignments.find({ audienceUserIds: userId }, null, limited).lean(),
        models.assignmentExtensions.find({ userId }, null, limited).lean(),
        models.certificates.find({ userId }, { pdf: 0 }, limited).lean(),
        models.notifications.find({ userId }, null, limited).lean(),
        models.candidateLinks.find({ createdBy: userId }, { tokenHash: 0 }, limited).lean(),
      ]);
      return {
        'Пройденные уроки': lessons,
        'Завершённые курсы': courses,
        'Попытки квизов': attempts,
        'Назначения по имени': assigned,
        'Продления сроков': extensions,
        Сертификаты: certificates,
        Уведомления: notifications,
        'Ссылки для кандидатов': links,
      };
    },

    async anonymise(userId, { alias }) {
      const attempts = await models.attempts.updateMany({ userId }, { $set: { userName: alias } });
      const authored = await models.assignments.updateMany({ 'createdBy.id': userId }, { $set: { 'createdBy.fullName': alias } });
      const links = await models.candidateLinks.updateMany({ createdBy: userId }, { $set: { createdByName: alias } });
      let certificates = 0;
      for (const c of await models.certificates.find({ userId }, { pdf: 0 }).lean()) {
        const verifyUrl = `${publicUrl.replace(/\/$/, '')}/verify/${c.number}`;
        const pdf = await renderCertificate({ ...c, fullName: alias, verifyUrl });
        await models.certificates.updateOne({ _id: c._id }, { $set: { fullName: alias, pdf } });
        certificates += 1;
      }
      return {
        'Попытки квизов': attempts.modifiedCount,
        'Назначения (автор)': authored.modifiedCount,
        'Ссылки для кандидатов (автор)': links.modifiedCount,
        Сертификаты: certificates,
      };
    },
  };
}
