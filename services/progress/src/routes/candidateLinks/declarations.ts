import {
  CANDIDATE_LINK_MSG,
  CONSENT_DOCUMENT,
  CONSENT_MSG,
  CONTENT_MSG,
  candidateLinkCreateSchema,
  candidateLinkListQuerySchema,
  candidateStartSchema,
} from '@portal/contracts';
import { defineRoute, EXAMPLE_ID, type RateLimit } from '@portal/service-kit';
import { manageCandidateLinks } from '../../policies/candidateLinks';
import {
  candidateLinkCreatedSchema,
  candidateLinkPageSchema,
  candidateLinkParams,
  candidateLinkPublicSchema,
  candidateLinkSchema,
  candidateStartedSchema,
  candidateTokenParams,
} from './schema';

const noLink = { description: 'Ссылки нет', example: CANDIDATE_LINK_MSG.notFound };
/** What a person without an account meets with a link's token: it may be missing, dead, or asked for too often. */
const deadLink = {
  404: noLink,
  410: {
    description: 'Ссылка отозвана, истекла или использована полностью (причина словами)',
    example: CANDIDATE_LINK_MSG.expired,
  },
};
/** Requests a minute per address to the public routes, in the service's Redis (PublicLimit). */
const perAddress: RateLimit = {
  name: 'candidate-link',
  refusal: { description: 'Слишком много запросов с этого адреса', example: CANDIDATE_LINK_MSG.tooManyRequests },
};

export const listCandidateLinks = defineRoute({
  method: 'GET',
  path: '/api/candidate-links',
  operationId: 'listCandidateLinks',
  summary: 'Ссылки для кандидатов, новые первыми',
  description: 'ADMIN видит все, CURATOR — созданные им.',
  access: manageCandidateLinks,
  query: candidateLinkListQuerySchema,
  ok: { status: 200, description: 'Страница ссылок', schema: candidateLinkPageSchema },
});

export const createCandidateLink = defineRoute({
  method: 'POST',
  path: '/api/candidate-links',
  operationId: 'createCandidateLink',
  summary: 'Создать ссылку на тест урока для кандидатов',
  description:
    'Урок опубликованного курса, который человек может менять (CURATOR — автор или соавтор). Срок: до даты, число прохождений или оба.',
  access: manageCandidateLinks,
  body: candidateLinkCreateSchema,
  example: {
    courseId: EXAMPLE_ID,
    lessonId: EXAMPLE_ID,
    validUntil: '2026-12-31',
    maxUses: 20,
    timeLimitMinutes: 30,
    showResult: false,
  },
  idempotent: true,
  ok: { status: 201, description: 'Ссылка и её адрес (один раз)', schema: candidateLinkCreatedSchema },
  also: {
    403: { description: 'Курс не этого куратора', example: CANDIDATE_LINK_MSG.notYours },
    404: { description: 'Курса или урока нет', example: CONTENT_MSG.courseNotFound },
  },
});

export const revokeCandidateLink = defineRoute({
  method: 'POST',
  path: '/api/candidate-links/:id/revoke',
  operationId: 'revokeCandidateLink',
  summary: 'Отозвать ссылку',
  access: manageCandidateLinks,
  params: candidateLinkParams,
  ok: { status: 200, description: 'Ссылка отозвана', schema: candidateLinkSchema },
  also: {
    404: noLink,
    403: { description: 'Ссылку создал другой куратор', example: CANDIDATE_LINK_MSG.revokeNotYours },
    409: { description: 'Уже отозвана', example: CANDIDATE_LINK_MSG.alreadyRevoked },
  },
});

export const viewCandidateLink = defineRoute({
  method: 'GET',
  path: '/api/candidate-links/public/:token',
  operationId: 'viewCandidateLink',
  summary: 'Что открывает ссылка (для кандидата)',
  description: `Тест, ограничение времени, показывается ли результат, и текст согласия «${CONSENT_DOCUMENT.title}».`,
  access: 'public',
  params: candidateTokenParams,
  ok: { status: 200, description: 'Ссылка действует', schema: candidateLinkPublicSchema },
  also: deadLink,
  rateLimit: perAddress,
  without: [400],
});

export const startCandidateLink = defineRoute({
  method: 'POST',
  path: '/api/candidate-links/public/:token/start',
  operationId: 'startCandidateLink',
  summary: 'Начать тест по ссылке',
  description:
    'ФИО, email и согласие (отдельная галочка). Создаётся временный кандидат «по ссылке» с сессией только для этого теста.',
  access: 'public',
  params: candidateTokenParams,
  body: candidateStartSchema,
  example: {
    fullName: 'Петров Пётр Петрович',
    email: 'petrov@example.ru',
    consent: true,
    consentVersion: CONSENT_DOCUMENT.version,
  },
  idempotent: true,
  ok: { status: 201, description: 'Сессия кандидата', schema: candidateStartedSchema },
  also: { ...deadLink, 409: { description: 'Текст согласия обновился', example: CONSENT_MSG.outdated } },
  rateLimit: perAddress,
});
