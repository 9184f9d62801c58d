/**
 * Certificates of completion: a unique number, the person's full name, the course,
 * its hours and the completion date; anyone may check a number on the public /verify page.
 */

export const CERTIFICATE_MSG = {
  notFound: 'Сертификат с таким номером не найден',
  numberInvalid: 'Номер сертификата имеет вид C-ГГГГ-XXXXXXXX',
  notCompleted: 'Сертификат выдаётся после прохождения всех уроков и тестов курса',
  tooManyChecks: 'Слишком много проверок сертификатов. Попробуйте через минуту',
} as const;

/** C-2026-7KQ2M9XA: the year of issue and eight characters without look-alikes (no 0/O, 1/I). */
export const CERTIFICATE_NUMBER = /^C-\d{4}-[2-9A-HJ-NP-Z]{8}$/;

/** A certificate as its holder (and staff) see it. */
export interface Certificate {
  number: string;
  userId: string;
  fullName: string;
  courseId: string;
  courseTitle: string;
  hours: number;
  completedAt: string;
  issuedAt: string;
}

/** What the public check tells: valid, for whom, for what. Nothing else. */
export interface CertificateCheck {
  valid: true;
  number: string;
  fullName: string;
  /** What was completed: a course, or a learning program of several courses (its title in `courseTitle`). */
  subject: 'course' | 'program';
  courseTitle: string;
  hours: number;
  completedAt: string;
}

/** The address of a certificate's PDF, on the portal's API. */
export const certificatePdfPath = (number: string): string => `/api/certificates/${encodeURIComponent(number)}/pdf`;
