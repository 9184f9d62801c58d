import { randomInt } from 'node:crypto';
import { CERTIFICATE_MSG, type CourseOutline } from '@portal/contracts';
import { badRequest, clock, notFound, type Principal } from '@portal/service-kit';
import { renderCertificate } from '../certificates/pdf';
import type { CertificateDoc } from '../models/certificate';
import type { ProgressModels } from '../models';
import { courseSnapshot } from './assignments';
import { courseCompletedAt } from './assignmentStatus';
import type { ProgressDeps } from './deps';

const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;

/** C-2026-7KQ2M9XA: 32^8 (about 10^12) numbers a year, drawn at random, so none can be guessed from another. */
export const newCertificateNumber = (at: Date): string =>
  `C-${at.getUTCFullYear()}-${Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`;

/**
 * The person's certificate for a course they completed (every lesson, every quiz passed): issued
 * the first time it is asked for, the same one after (one per completion, a unique index decides
 * between two replicas issuing at once). Refused with 400 before the course is completed.
 */
export async function issueCertificate(
  deps: ProgressDeps & { publicUrl: string },
  person: Principal,
  course: CourseOutline,
): Promise<{ certificate: CertificateDoc; created: boolean }> {
  const { models, audit } = deps;
  const completedAt = await courseCompletedAt(models, person.id, courseSnapshot(course));
  if (!completedAt) throw badRequest(CERTIFICATE_MSG.notCompleted, 'courseId');
  const existing = await models.certificates
    .findOne({ userId: person.id, courseId: course.id, completedAt })
    .lean<CertificateDoc>();
  if (existing) return { certificate: existing, created: false };

  const issuedAt = clock.now();
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const number = newCertificateNumber(issuedAt);
    const content = { number, fullName: person.fullName, courseTitle: course.title, hours: course.duration, completedAt };
    const pdf = await renderCertificate({
      ...content,
      verifyUrl: `${deps.publicUrl.replace(/\/$/, '')}/verify/${number}`,
      issuer: deps.certificateIssuer,
    });
    try {
      const created = await models.certificates.create({ ...content, userId: person.id, courseId: course.id, issuedAt, pdf });
      audit.publish({
        code: 'certificate.issued',
        data: { course: course.title, courseId: course.id },
        entityId: number,
        actor: person,
      });
      return { certificate: created.toObject(), created: true };
    } catch (err) {
      if (!isDuplicate(err)) throw err;
      // Another replica issued it at the same moment: that one stands.
      const raced = await models.certificates
        .findOne({ userId: person.id, courseId: course.id, completedAt })
        .lean<CertificateDoc>();
      if (raced) return { certificate: raced, created: false };
      // Otherwise the random number was taken: draw another.
    }
  }
  throw new Error('no free certificate number after 3 draws');
}

export async function findCertificate(models: ProgressModels, number: string): Promise<CertificateDoc> {
  const found = await models.certificates.findOne({ number }).lean<CertificateDoc>();
  if (!found) throw notFound(CERTIFICATE_MSG.notFound);
  return found;
}
