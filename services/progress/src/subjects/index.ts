import { SUBJECT_EXPORT_LIMIT, op, type SubjectHandlers } from '@portal/service-kit';
import { renderCertificate, type CertificateIssuer } from '../certificates/pdf';
import { isProgramCertificate } from '../commands/programCertificates';
import type { ProgressModels } from '../models';
import { renamedLearner } from '../scorm/cmi';

/**
 * What the progress service holds about a person (their lessons, courses, quiz attempts with every
 * answer, assignments, certificates, notifications), and how it forgets them: results and statistics stay, under
 * the alias; a certificate is issued again in the alias's name, so its PDF names no one.
 */
export function progressSubjects(models: ProgressModels, publicUrl: string, issuer: CertificateIssuer): SubjectHandlers {
  const limited = { limit: SUBJECT_EXPORT_LIMIT };
  return {
    async collect(userId) {
      const [
        lessons,
        courses,
        attempts,
        drafts,
        assigned,
        extensions,
        certificates,
        notifications,
        links,
        scorm,
        programs,
        authored,
      ] = await Promise.all([
        models.completions.find({ userId }, null, limited).lean(),
        models.courseCompletions.find({ userId }, null, limited).lean(),
        models.attempts.find({ userId }, null, limited).lean(),
        models.attemptDrafts.find({ userId }, null, limited).lean(),
        models.assignments.find({ audienceUserIds: userId }, null, limited).lean(),
        models.assignmentExtensions.find({ userId }, null, limited).lean(),
        models.certificates.find({ userId }, { pdf: 0 }, limited).lean(),
        models.notifications.find({ userId }, null, limited).lean(),
        models.candidateLinks.find({ createdBy: userId }, { tokenHash: 0 }, limited).lean(),
        models.scormAttempts.find({ userId }, null, limited).lean(),
        models.programMembers.find({ userId }, null, limited).lean(),
        models.programs.find({ $or: [{ 'owner.id': userId }, { coAuthorIds: userId }] }, null, limited).lean(),
      ]);
      return {
        'Пройденные уроки': lessons,
        'Завершённые курсы': courses,
        'Попытки квизов': attempts,
        'Ответы незавершённых попыток': drafts,
        'Назначения по имени': assigned,
        'Продления сроков': extensions,
        Сертификаты: certificates,
        Уведомления: notifications,
        'Ссылки для кандидатов': links,
        'Попытки SCORM-уроков': scorm,
        'Программы обучения (участие)': programs,
        'Программы обучения (автор, соавтор)': authored,
      };
    },

    async anonymise(userId, { alias }) {
      const attempts = await models.attempts.updateMany({ userId }, { $set: { userName: alias } });
      const reviewed = await renameReviewer(models, userId, alias);
      const authored = await models.assignments.updateMany({ 'createdBy.id': userId }, { $set: { 'createdBy.fullName': alias } });
      const links = await models.candidateLinks.updateMany({ createdBy: userId }, { $set: { createdByName: alias } });
      // Their place in programs keeps its progress under the alias; programs they wrote or assigned name the alias.
      const members = await models.programMembers.updateMany({ userId }, { $set: { fullName: alias, email: '' } });
      const programs = await models.programs.updateMany({ 'owner.id': userId }, { $set: { 'owner.fullName': alias } });
      const programAssignments = await models.programAssignments.updateMany(
        { 'createdBy.id': userId },
        { $set: { 'createdBy.fullName': alias } },
      );
      let scorm = 0;
      for (const a of await models.scormAttempts.find({ userId }, { cmi: 1 }).lean()) {
        await models.scormAttempts.updateOne({ _id: a._id }, { $set: { userName: alias, cmi: renamedLearner(a.cmi, alias) } });
        scorm += 1;
      }
      let certificates = 0;
      for (const c of await models.certificates.find({ userId }, { pdf: 0 }).lean()) {
        const verifyUrl = `${publicUrl.replace(/\/$/, '')}/verify/${c.number}`;
        const subject = isProgramCertificate(c.courseId) ? 'program' : 'course';
        const pdf = await renderCertificate({ ...c, fullName: alias, verifyUrl, issuer, subject });
        await models.certificates.updateOne({ _id: c._id }, { $set: { fullName: alias, pdf } });
        certificates += 1;
      }
      return {
        'Попытки квизов': attempts.modifiedCount,
        'Проверенные ответы других (проверяющий)': reviewed,
        'Назначения (автор)': authored.modifiedCount,
        'Ссылки для кандидатов (автор)': links.modifiedCount,
        Сертификаты: certificates,
        'Попытки SCORM-уроков': scorm,
        'Программы обучения (участие)': members.modifiedCount,
        'Программы обучения (автор)': programs.modifiedCount,
        'Назначения программ (автор)': programAssignments.modifiedCount,
      };
    },
  };
}

/** How many graded attempts one pass reads: a reviewer's history is read page by page, never all at once. */
const REVIEW_BATCH = 200;

/**
 * The reviewer's name kept inside other people's graded answers («Проверил: …») becomes the alias.
 * The answers array is rewritten whole (positional array filters are not something every store of
 * the MongoDB wire protocol serves), a batch of attempts at a time, until none names the person.
 */
async function renameReviewer(models: ProgressModels, userId: string, alias: string): Promise<number> {
  let changed = 0;
  const done = new Set<string>();
  for (;;) {
    const batch = await models.attempts
      .find({ 'answers.review.by': userId, 'answers.review.byName': op({ $ne: alias }) }, { answers: 1 })
      .limit(REVIEW_BATCH)
      .lean();
    // An attempt seen twice was not rewritten: stop rather than loop (the request stays open and can be run again).
    if (!batch.length || batch.every((a) => done.has(String(a._id)))) return changed;
    for (const attempt of batch) {
      done.add(String(attempt._id));
      const answers = attempt.answers.map((a) =>
        a.review?.by === userId ? { ...a, review: { ...a.review, byName: alias } } : a,
      );
      await models.attempts.updateOne({ _id: attempt._id }, { $set: { answers } });
      changed += 1;
    }
  }
}
