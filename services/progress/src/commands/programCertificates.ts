import { clock, isDuplicateKey } from '@portal/service-kit';
import { renderCertificate } from '../certificates/pdf';
import type { CertificateDoc } from '../models/certificate';
import type { ProgramDoc, ProgramMemberDoc } from '../models/program';
import { newCertificateNumber } from './certificates';
import type { ProgressDeps } from './deps';

/**
 * Certificates of programs are kept beside those of courses (the same number, PDF and public check),
 * under this course id: a program is never mistaken for a course, and the holder's list shows both.
 */
export const programCertificateId = (programId: string) => `program:${programId}`;

/** Whether a certificate is a program's (`programCertificateId`), not a course's. */
export const isProgramCertificate = (courseId: string) => courseId.startsWith('program:');

/**
 * Issues the program's certificate for one completion of it (one per completion: the unique index of
 * certificates decides between two replicas), and notes its number on the member.
 */
export async function issueProgramCertificate(
  deps: Pick<ProgressDeps, 'models' | 'audit' | 'portalLink' | 'certificateIssuer'>,
  program: ProgramDoc,
  member: ProgramMemberDoc,
  completedAt: Date,
): Promise<string> {
  const courseId = programCertificateId(String(program._id));
  const find = () =>
    deps.models.certificates
      .findOne({ userId: member.userId, courseId, completedAt }, { number: 1 })
      .lean<Pick<CertificateDoc, 'number'>>();
  let number = (await find())?.number;
  for (let attempt = 0; !number && attempt < 3; attempt += 1) {
    const issuedAt = clock.now();
    const candidate = newCertificateNumber(issuedAt);
    const content = { number: candidate, fullName: member.fullName, courseTitle: program.title, hours: 0, completedAt };
    const pdf = await renderCertificate({
      ...content,
      subject: 'program',
      verifyUrl: deps.portalLink(`/verify/${candidate}`),
      issuer: deps.certificateIssuer,
    });
    try {
      await deps.models.certificates.create({ ...content, userId: member.userId, courseId, issuedAt, pdf });
      number = candidate;
      deps.audit.publish({
        code: 'programCertificate.issued',
        data: { program: program.title, programId: String(program._id) },
        entityId: candidate,
        actor: { id: member.userId, fullName: member.fullName, email: member.email },
      });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      number = (await find())?.number;
    }
  }
  if (!number) throw new Error('no free certificate number after 3 draws');
  await deps.models.programMembers.updateOne({ _id: member._id }, { $set: { certificateNumber: number } });
  return number;
}
