import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  PROGRESS_MSG,
  QUIZ_MSG,
  formatMessage,
  ROLES,
  STUDY_ROLES,
  attemptStartSchema,
  attemptSubmitSchema,
} from '@portal/contracts';
import { idParam, missing, noConsent, route, routesOf, withOperationIds } from '../route';
import { TAGS } from '../tags';
import { attemptDetailSchema, quizCardSchema, startedAttemptSchema, EXAMPLE_ID } from '../schemas';

const tag = TAGS.progress.name;
/** One attempt: its id, and 404 when it is not there or not this person's. */
const attemptRoute = routesOf(tag, {
  params: idParam('id', 'Идентификатор попытки'),
  also: missing('Попытки нет, или она чужая', PROGRESS_MSG.attemptNotFound),
});
const noQuiz = missing('Квиза нет, или он недоступен', QUIZ_MSG.quizNotFound);
const ownScope = 'Учащийся видит только свои попытки; ADMIN — все; CURATOR — попытки курсов, где он автор или соавтор.';

const attemptOperations: ZodOpenApiPathsObject = {
  '/api/attempts/quiz/{quizId}': {
    get: route(tag, {
      summary: 'Карточка квиза в уроке: попытки, лучшая, можно ли начать',
      access: STUDY_ROLES,
      params: idParam('quizId', 'Идентификатор квиза'),
      ok: { status: 200, description: 'Карточка', schema: quizCardSchema },
      also: noQuiz,
    }),
  },
  '/api/attempts': {
    post: route(tag, {
      summary: 'Начать попытку (или продолжить начатую)',
      access: STUDY_ROLES,
      body: attemptStartSchema,
      example: { quizId: EXAMPLE_ID, courseId: EXAMPLE_ID, lessonId: EXAMPLE_ID },
      idempotent: true,
      ok: { status: 201, description: 'Попытка начата', schema: startedAttemptSchema },
      alsoOk: { 200: { description: 'Продолжается начатая попытка', schema: startedAttemptSchema } },
      also: {
        ...noConsent,
        404: { description: 'Квиза нет в этом уроке, или он недоступен', example: PROGRESS_MSG.quizNotInLesson },
        409: {
          description: 'Начать нельзя: попытки закончились или квиз уже пройден',
          example: formatMessage(PROGRESS_MSG.attemptsExhausted, { used: 3, max: 3 }),
        },
      },
    }),
  },
  '/api/attempts/{id}/submit': {
    post: attemptRoute({
      summary: 'Сдать ответы',
      description:
        'Ответы, пришедшие после ограничения времени (с запасом), не засчитываются. Повторная сдача отвечает тем же результатом.',
      access: STUDY_ROLES,
      body: attemptSubmitSchema,
      example: { answers: [{ questionId: 'q1', answer: 0, timeSpent: 12 }] },
      ok: { status: 200, description: 'Результат попытки', schema: attemptDetailSchema },
      also: noConsent,
    }),
  },
  '/api/attempts/{id}': {
    get: attemptRoute({
      summary: 'Попытка с результатами по вопросам',
      description: ownScope,
      access: ROLES,
      ok: { status: 200, description: 'Попытка', schema: attemptDetailSchema },
      without: [403],
    }),
  },
};

export const progressPaths = withOperationIds(attemptOperations, {
  'GET /api/attempts/quiz/{quizId}': 'getQuizCard',
  'POST /api/attempts': 'startAttempt',
  'POST /api/attempts/{id}/submit': 'submitAttempt',
  'GET /api/attempts/{id}': 'getAttempt',
});
