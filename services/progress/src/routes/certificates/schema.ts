import { z } from 'zod';
import {
  certificateNumberSchema,
  entityIdField,
  pagingFields,
  type Certificate,
  type CertificateCheck,
  type Page,
} from '@portal/contracts';
import { conforms, isoDateTime, pageOf } from '@portal/service-kit';

const id = z.string().meta({ example: '6743a1f0c2b5e80012ab34cd' });
const number = z.string().meta({ example: 'C-2026-7KQ2M9XA' });
const fullName = z.string().meta({ example: 'Иванов Иван Иванович' });
const courseTitle = z.string().meta({ example: 'Охрана труда' });

/** A certificate's number in the path: a malformed one is 400 in Russian. */
export const certificateParams = z.object({
  number: certificateNumberSchema.meta({ description: 'Номер сертификата', example: 'C-2026-7KQ2M9XA' }),
});

/** The course whose certificate a learner asks for. */
export const certificateIssueSchema = z.object({ courseId: entityIdField('courseId') });

export const certificateListQuery = z.object({ ...pagingFields(20) });

export const certificateSchema = conforms<Certificate>().as(
  z
    .object({
      number,
      userId: id,
      fullName,
      courseId: id,
      courseTitle,
      hours: z.number(),
      completedAt: isoDateTime,
      issuedAt: isoDateTime,
    })
    .meta({ id: 'Certificate' }),
);

export const certificatePageSchema = conforms<Page<Certificate>>().as(pageOf(certificateSchema, 'CertificatePage'));

export const certificateCheckSchema = conforms<CertificateCheck>().as(
  z
    .object({
      valid: z.literal(true),
      number,
      fullName,
      subject: z.enum(['course', 'program']).meta({ description: 'Курс или программа обучения' }),
      courseTitle,
      hours: z.number(),
      completedAt: isoDateTime,
    })
    .meta({ id: 'CertificateCheck' }),
);
