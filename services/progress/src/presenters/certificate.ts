import type { Certificate, CertificateCheck } from '@portal/contracts';
import { isProgramCertificate } from '../commands/programCertificates';
import type { CertificateDoc } from '../models/certificate';

export const presentCertificate = (doc: CertificateDoc): Certificate => ({
  number: doc.number,
  userId: doc.userId,
  fullName: doc.fullName,
  courseId: doc.courseId,
  courseTitle: doc.courseTitle,
  hours: doc.hours,
  completedAt: doc.completedAt.toISOString(),
  issuedAt: doc.issuedAt.toISOString(),
});

/** The public check: whether it is valid, for whom and for what; no ids, no email, nothing else. */
export const presentCertificateCheck = (doc: CertificateDoc): CertificateCheck => ({
  valid: true,
  number: doc.number,
  fullName: doc.fullName,
  subject: isProgramCertificate(doc.courseId) ? 'program' : 'course',
  courseTitle: doc.courseTitle,
  hours: doc.hours,
  completedAt: doc.completedAt.toISOString(),
});
