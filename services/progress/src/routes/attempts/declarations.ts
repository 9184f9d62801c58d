import {
  PROGRESS_MSG,
  QUIZ_MSG,
  attemptAnswersSaveSchema,
  attemptStartSchema,
  attemptSubmitSchema,
  formatMessage,
} from '@portal/contracts';
import { defineRoute, EXAMPLE_ID } from '@portal/service-kit';
import { attemptReaders, ownAttemptAnswers, quizTakers } from '../../policies/attempts';
import { noConsent } from '../../policies/consent';
import { attemptDetailSchema } from '../results/schema';
import { attemptAnswersSavedSchema, attemptParams, quizParams, quizCardSchema, startedAttemptSchema } from './schema';

/** One attempt that is not there, or not this person's: the same 404, so ids leak nothing. */
const noAttempt = { description: 'Попытки нет, или она чужая', example: PROGRESS_MSG.attemptNotFound };

/** The quiz card of a lesson: the quiz without answers, the learner's attempts, whether one may start. */
export const getQuizCard = defineRoute({
  method: 'GET',
  path: '/api/attempts/quiz/:quizId',
  operationId: 'getQuizCard',
  summary: 'Карточка квиза в уроке: попытки, лучшая, можно ли начать',
  access: quizTakers,
  params: quizParams,
  ok: { status: 200, description: 'Карточка', schema: quizCardSchema },
  also: { 404: { description: 'Квиза нет, или он недоступен', example: QUIZ_MSG.quizNotFound } },
});

/** A start, or the resumption of the unfinished attempt (201 new, 200 resumed); a retry with its key is answered, not made again. */
export const startAttempt = defineRoute({
  method: 'POST',
  path: '/api/attempts',
  operationId: 'startAttempt',
  summary: 'Начать попытку (или продолжить начатую)',
  access: quizTakers,
  body: attemptStartSchema,
  example: { quizId: EXAMPLE_ID, courseId: EXAMPLE_ID, lessonId: EXAMPLE_ID },
  idempotent: true,
  ok: { status: 201, description: 'Попытка начата', schema: startedAttemptSchema },
  alsoOk: { 200: { description: 'Продолжается начатая попытка', schema: startedAttemptSchema } },
  also: {
    403: noConsent,
    404: { description: 'Квиза нет в этом уроке, или он недоступен', example: PROGRESS_MSG.quizNotInLesson },
    409: {
      description: 'Начать нельзя: попытки закончились или квиз уже пройден',
      example: formatMessage(PROGRESS_MSG.attemptsExhausted, { used: 3, max: 3 }),
    },
  },
});

/** Graded on the server; a second submit answers the first result. */
export const submitAttempt = defineRoute({
  method: 'POST',
  path: '/api/attempts/:id/submit',
  operationId: 'submitAttempt',
  summary: 'Сдать ответы',
  description:
    'Ответы, пришедшие после ограничения времени (с запасом), не засчитываются. Повторная сдача отвечает тем же результатом.',
  access: quizTakers,
  params: attemptParams,
  body: attemptSubmitSchema,
  example: { answers: [{ questionId: 'q1', answer: 0, timeSpent: 12 }] },
  ok: { status: 200, description: 'Результат попытки', schema: attemptDetailSchema },
  also: { 404: noAttempt, 403: noConsent },
});

/** An attempt with its results: one's own, or those a person reads by the results' rule (`maySeeAttempt`). */
export const getAttempt = defineRoute({
  method: 'GET',
  path: '/api/attempts/:id',
  operationId: 'getAttempt',
  summary: 'Попытка с результатами по вопросам',
  description: 'Учащийся видит только свои попытки; ADMIN — все; CURATOR — попытки курсов, где он автор или соавтор.',
  access: attemptReaders,
  params: attemptParams,
  ok: { status: 200, description: 'Попытка', schema: attemptDetailSchema },
  also: { 404: noAttempt },
  without: [403],
});

/** The answers given so far, kept on the server as the learner goes (docs/decisions/095). */
export const saveAttemptAnswers = defineRoute({
  method: 'PUT',
  path: '/api/attempts/:id/answers',
  operationId: 'saveAttemptAnswers',
  summary: 'Сохранить ответы незавершённой попытки',
  description:
    'Ответы, данные до сих пор (каждый раз все), заменяют сохранённые раньше. Ничего не проверяется и не сообщается: оценка — при отправке или по истечении времени, по сохранённым ответам. Только своя попытка, пока она не завершена и не вышло время.',
  access: ownAttemptAnswers,
  params: attemptParams,
  body: attemptAnswersSaveSchema,
  example: { answers: [{ questionId: 'q1', answer: 2, timeSpent: 14 }] },
  ok: { status: 200, description: 'Ответы сохранены', schema: attemptAnswersSavedSchema },
  also: {
    404: { description: 'Попытки нет (или она чужая)', example: PROGRESS_MSG.attemptNotFound },
    409: { description: 'Попытка уже завершена, или её время вышло', example: PROGRESS_MSG.answersAttemptClosed },
  },
});
