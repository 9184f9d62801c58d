import { CERTIFICATE_MSG, CONTENT_MSG } from '@portal/contracts';
import { binarySchema, defineRoute } from '@portal/service-kit';
import { ownCertificates, readCertificates } from '../../policies/certificates';
import { noConsent } from '../../policies/consent';
import {
  certificateCheckSchema,
  certificateIssueSchema,
  certificateListQuery,
  certificatePageSchema,
  certificateParams,
  certificateSchema,
} from './schema';

const noCertificate = {
  400: { description: 'Номер не того вида', example: CERTIFICATE_MSG.numberInvalid },
  404: { description: 'Сертификата с таким номером нет (или он чужой)', example: CERTIFICATE_MSG.notFound },
};

/** Public: whether a number is valid, for whom and for what. Limited per address: an answer names a person. */
export const verifyCertificate = defineRoute({
  method: 'GET',
  path: '/api/certificates/verify/:number',
  operationId: 'verifyCertificate',
  summary: 'Проверить сертификат по номеру',
  description: 'Публично: действителен ли номер, кому и за какой курс выдан. Больше ничего.',
  access: 'public',
  params: certificateParams,
  ok: { status: 200, description: 'Сертификат действителен', schema: certificateCheckSchema },
  also: noCertificate,
  rateLimit: {
    name: 'certificate-verify',
    refusal: {
      description: 'Слишком много проверок с этого адреса (заголовок Retry-After)',
      example: CERTIFICATE_MSG.tooManyChecks,
    },
  },
});

/** The learner's certificate for a course they completed: issued now (201) or the one issued before (200). */
export const issueCertificate = defineRoute({
  method: 'POST',
  path: '/api/certificates',
  operationId: 'issueCertificate',
  summary: 'Получить сертификат за пройденный курс',
  description: 'Выдаётся, когда пройдены все уроки и все тесты курса; повторный запрос отвечает тем же сертификатом (200).',
  access: ownCertificates,
  body: certificateIssueSchema,
  example: { courseId: '6743a1f0c2b5e80012ab34cd' },
  idempotent: true,
  ok: { status: 201, description: 'Сертификат выдан', schema: certificateSchema },
  alsoOk: { 200: { description: 'Сертификат был выдан раньше', schema: certificateSchema } },
  also: {
    404: { description: 'Курса нет', example: CONTENT_MSG.courseNotFound },
    403: noConsent,
    400: { description: 'Курс ещё не пройден', example: CERTIFICATE_MSG.notCompleted },
  },
});

export const listMyCertificates = defineRoute({
  method: 'GET',
  path: '/api/certificates/my',
  operationId: 'listMyCertificates',
  summary: 'Мои сертификаты, новые первыми',
  access: ownCertificates,
  query: certificateListQuery,
  ok: { status: 200, description: 'Страница сертификатов', schema: certificatePageSchema },
});

export const downloadCertificate = defineRoute({
  method: 'GET',
  path: '/api/certificates/:number/pdf',
  operationId: 'downloadCertificate',
  summary: 'Сертификат в PDF',
  description: 'Его владельцу, автору курса и соавторам, а также ADMIN; другим — 404.',
  access: readCertificates,
  params: certificateParams,
  ok: { status: 200, description: 'PDF', mediaType: 'application/pdf', schema: binarySchema },
  also: noCertificate,
  without: [403],
});
