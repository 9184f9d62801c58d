import { z } from 'zod';
import {
  entityIdField,
  type CandidateLink,
  type CandidateLinkCreated,
  type CandidateLinkPublic,
  type CandidateStarted,
  type Page,
} from '@portal/contracts';
import { conforms, EXAMPLE_ID, isoDateTime, pageOf } from '@portal/service-kit';

const id = z.string().meta({ example: EXAMPLE_ID });

/** A link's id in the path. */
export const candidateLinkParams = z.object({
  id: entityIdField('id').meta({ description: 'Идентификатор ссылки', example: EXAMPLE_ID }),
});

/** The token of a link in the path: any text; one of the wrong shape is a link that does not exist (404). */
export const candidateTokenParams = z.object({
  token: z.string().meta({ description: 'Токен из ссылки /t/{token}', example: 'N'.repeat(43) }),
});

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
      createdAt: isoDateTime,
      revokedAt: isoDateTime.nullable(),
    })
    .meta({ id: 'CandidateLink' }),
);

export const candidateLinkPageSchema = conforms<Page<CandidateLink>>().as(pageOf(candidateLinkSchema, 'CandidateLinkPage'));

export const candidateLinkCreatedSchema = conforms<CandidateLinkCreated>().as(
  z
    .object({
      link: candidateLinkSchema,
      token: z.string().meta({ description: 'Показывается один раз: хранится только его хэш' }),
      url: z.string().meta({ example: 'https://learn.example.ru/t/3q2-…' }),
    })
    .meta({ id: 'CandidateLinkCreated' }),
);

export const candidateLinkPublicSchema = conforms<CandidateLinkPublic>().as(
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

export const candidateStartedSchema = conforms<CandidateStarted>().as(
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
