import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  CANDIDATE_LINK_MSG,
  CONSENT_DOCUMENT,
  CONSENT_MSG,
  CONTENT_MSG,
  STAFF_ROLES,
  candidateLinkCreateSchema,
  candidateLinkListQuerySchema,
  candidateStartSchema,
  type CandidateLink,
  type CandidateLinkCreated,
  type CandidateLinkPublic,
  type CandidateStarted,
} from '@portal/contracts';
import { idParam, missing, pageAnswer, route, routesOf } from '../route';
import { TAGS } from '../tags';
import { EXAMPLE_ID, conforms } from '../schemas';

const tag = TAGS.progress.name;
const id = z.string().meta({ example: EXAMPLE_ID });
const isoDate = z.string().meta({ format: 'date-time', example: '2026-11-25T09:30:00.000Z' });

export const candidateLinkSchema = conforms<CandidateLink>().as(
  z
    .object({
      id,
      courseId: id,
      courseTitle: z.string().meta({ example: 'Охрана труда' }),
      lessonId: id,
      quizId: id,
      quizTitle: z.string().meta({ example: 'Итоговый тест' }),
      validUntil: z.string().nullable().meta({ format: 'date', example: '2026-12-31', description: 'Последний день (МСК)' }),
      maxUses: z.number().int().nullable(),
      uses: z.number().int(),
      timeLimitMinutes: z.number().int().nullable(),
      showResult: z.boolean(),
      state: z.enum(['active', 'revoked', 'expired', 'used_up']),
      createdBy: id,
      createdByName: z.string(),
      createdAt: isoDate,
      revokedAt: isoDate.nullable(),
    })
    .meta({ id: 'CandidateLink' }),
);

const candidateLinkCreatedSchema = conforms<CandidateLinkCreated>().as(
  z
    .object({
      link: candidateLinkSchema,
      token: z.string().meta({ description: 'Показывается один раз: хранится только его хэш' }),
      url: z.string().meta({ example: 'https://learn.example.ru/t/3q2-…' }),
    })
    .meta({ id: 'CandidateLinkCreated' }),
);

const candidateLinkPublicSchema = conforms<CandidateLinkPublic>().as(
  z
    .object({
      courseTitle: z.string(),
      quizTitle: z.string(),
      timeLimitMinutes: z.number().int().nullable(),
      showResult: z.boolean(),
      consent: z.object({ version: z.string(), title: z.string(), paragraphs: z.array(z.string()).readonly() }),
    })
    .meta({ id: 'CandidateLinkPublic' }),
);

const candidateStartedSchema = conforms<CandidateStarted>().as(
  z
    .object({
      token: z.string().meta({ description: 'Сессия кандидата: открывает только этот тест' }),
      user: z.object({ id, email: z.string(), fullName: z.string(), role: z.literal('CANDIDATE') }),
      courseId: id,
      lessonId: id,
      quizId: id,
      showResult: z.boolean(),
    })
    .meta({ id: 'CandidateStarted' }),
);

const noLink = missing('Ссылки нет', CANDIDATE_LINK_MSG.notFound);
/** What a person without an account does with the link's token: it may be missing, dead, or asked for too often. */
const byTokenRoute = routesOf(tag, {
  access: 'public',
  params: z.object({ token: z.string().meta({ description: 'Токен из ссылки /t/{token}', example: 'N'.repeat(43) }) }),
  also: {
    ...noLink,
    410: {
      description: 'Ссылка отозвана, истекла или использована полностью (причина словами)',
      example: CANDIDATE_LINK_MSG.expired,
    },
    429: { description: 'Слишком много запросов с этого адреса', example: CANDIDATE_LINK_MSG.tooManyRequests },
  },
});

export const candidateLinkPaths: ZodOpenApiPathsObject = {
  '/api/candidate-links': {
    get: route(tag, {
      summary: 'Ссылки для кандидатов, новые первыми',
      description: 'ADMIN видит все, CURATOR — созданные им.',
      access: STAFF_ROLES,
      query: candidateLinkListQuerySchema,
      ok: pageAnswer('Страница ссылок', candidateLinkSchema, 'CandidateLinkPage'),
    }),
    post: route(tag, {
      summary: 'Создать ссылку на тест урока для кандидатов',
      description:
        'Урок опубликованного курса, который человек может менять (CURATOR — автор или соавтор). Срок: до даты, число прохождений или оба.',
      access: STAFF_ROLES,
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
    }),
  },
  '/api/candidate-links/{id}/revoke': {
    post: route(tag, {
      summary: 'Отозвать ссылку',
      access: STAFF_ROLES,
      params: idParam('id', 'Идентификатор ссылки'),
      ok: { status: 200, description: 'Ссылка отозвана', schema: candidateLinkSchema },
      also: {
        ...noLink,
        403: { description: 'Ссылку создал другой куратор', example: CANDIDATE_LINK_MSG.revokeNotYours },
        409: { description: 'Уже отозвана', example: CANDIDATE_LINK_MSG.alreadyRevoked },
      },
    }),
  },
  '/api/candidate-links/public/{token}': {
    get: byTokenRoute({
      summary: 'Что открывает ссылка (для кандидата)',
      description: `Тест, ограничение времени, показывается ли результат, и текст согласия «${CONSENT_DOCUMENT.title}».`,
      ok: { status: 200, description: 'Ссылка действует', schema: candidateLinkPublicSchema },
      without: [400],
    }),
  },
  '/api/candidate-links/public/{token}/start': {
    post: byTokenRoute({
      summary: 'Начать тест по ссылке',
      description:
        'ФИО, email и согласие (отдельная галочка). Создаётся временный кандидат «по ссылке» с сессией только для этого теста.',
      body: candidateStartSchema,
      example: {
        fullName: 'Петров Пётр Петрович',
        email: 'petrov@example.ru',
        consent: true,
        consentVersion: CONSENT_DOCUMENT.version,
      },
      idempotent: true,
      ok: { status: 201, description: 'Сессия кандидата', schema: candidateStartedSchema },
      also: { 409: { description: 'Текст согласия обновился', example: CONSENT_MSG.outdated } },
    }),
  },
};
