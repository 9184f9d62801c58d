import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  PROGRESS_MSG,
  QUIZ_MSG,
  RESULTS_ALL_ROLES,
  REVIEW_MSG,
  ANALYSIS_MSG,
  reviewInputSchema,
  reviewsQuerySchema,
  formatMessage,
  ROLES,
  STUDY_ROLES,
  attemptStartSchema,
  attemptSubmitSchema,
  lessonCompleteSchema,
  resultsExportQuerySchema,
  resultsQuerySchema,
} from '@portal/contracts';
import { exportRoute, idParam, missing, noConsent, route, routesOf } from '../route';
import { TAGS } from '../tags';
import {
  attemptDetailSchema,
  courseProgressSchema,
  lessonCompleteResultSchema,
  lessonCompletionSchema,
  myCourseProgressSchema,
  quizCardSchema,
  resultsPageSchema,
  reviewPageSchema,
  quizAnalysisSchema,
  startedAttemptSchema,
  EXAMPLE_ID,
} from '../schemas';

const tag = TAGS.progress.name;
const noCourse = missing('Курса нет или он скрыт от этого человека', PROGRESS_MSG.courseNotFound);
/** A learner's progress in one course. */
const courseProgressRoute = routesOf(tag, {
  access: STUDY_ROLES,
  params: idParam('courseId', 'Идентификатор курса'),
  also: noCourse,
});
/** One attempt: its id, and 404 when it is not there or not this person's. */
const attemptRoute = routesOf(tag, {
  params: idParam('id', 'Идентификатор попытки'),
  also: missing('Попытки нет, или она чужая', PROGRESS_MSG.attemptNotFound),
});
const noQuiz = missing('Квиза нет, или он недоступен', QUIZ_MSG.quizNotFound);
const notOwn = {
  403: { description: 'Учащийся указал в userId не себя', example: PROGRESS_MSG.notOwnResults },
};
const ownScope = 'Учащийся видит только свои попытки; ADMIN — все; CURATOR — попытки курсов, где он автор или соавтор.';

export const progressPaths: ZodOpenApiPathsObject = {
  '/api/progress/lesson/{lessonId}/complete': {
    post: route(tag, {
      summary: 'Отметить урок пройденным',
      description:
        'Повторная отметка ничего не меняет и отвечает 200. Урок с тестом засчитывается прохождением теста: до него ответ 409.',
      access: STUDY_ROLES,
      params: idParam('lessonId', 'Идентификатор урока'),
      body: lessonCompleteSchema,
      example: { courseId: EXAMPLE_ID },
      idempotent: true,
      ok: { status: 201, description: 'Урок отмечен', schema: lessonCompleteResultSchema },
      alsoOk: { 200: { description: 'Урок уже был отмечен', schema: lessonCompleteResultSchema } },
      also: {
        ...noCourse,
        ...noConsent,
        409: { description: 'В уроке тест: урок засчитывается, когда тест пройден', example: PROGRESS_MSG.lessonNeedsQuiz },
      },
    }),
  },
  '/api/progress/course/{courseId}': {
    get: courseProgressRoute({
      summary: 'Прогресс по курсу',
      ok: { status: 200, description: 'Прогресс', schema: courseProgressSchema },
    }),
  },
  '/api/progress/course/{courseId}/lessons': {
    get: courseProgressRoute({
      summary: 'Пройденные уроки курса',
      ok: { status: 200, description: 'Отметки уроков', schema: z.array(lessonCompletionSchema) },
    }),
  },
  '/api/progress/my': {
    get: route(tag, {
      summary: 'Мой прогресс по всем курсам',
      access: STUDY_ROLES,
      ok: { status: 200, description: 'По курсу на элемент', schema: z.array(myCourseProgressSchema) },
    }),
  },
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
  '/api/results': {
    get: route(tag, {
      summary: 'Результаты квизов',
      description: ownScope,
      access: ROLES,
      query: resultsQuerySchema,
      ok: { status: 200, description: 'Страница результатов и сводка', schema: resultsPageSchema },
      also: notOwn,
    }),
  },
  '/api/results/export': {
    get: exportRoute(tag, {
      summary: 'Результаты в CSV или XLSX (quiz_results.csv)',
      description: `${ownScope} Те же фильтры, что у списка, все строки; даты — в часовом поясе \`tz\`.`,
      access: ROLES,
      query: resultsExportQuerySchema,
      file: 'quiz_results',
      also: notOwn,
    }),
  },
  '/api/reviews': {
    get: route(tag, {
      summary: 'Проверка ответов: попытки, ждущие куратора',
      description:
        'Развёрнутые ответы и файлы, которые оценивает человек. Страница — попытки «на проверке» (старые первыми), каждая со всеми ждущими ответами. Куратор видит ответы своих курсов (автор или соавтор), ADMIN — всех.',
      access: RESULTS_ALL_ROLES,
      query: reviewsQuerySchema,
      ok: { status: 200, description: 'Страница ответов на проверке', schema: reviewPageSchema },
    }),
  },
  '/api/results/analysis/{quizId}': {
    get: route(tag, {
      summary: 'Анализ вопросов квиза',
      description:
        'Гистограмма баллов и по каждому вопросу: попытки, трудность (% баллов), различающая сила (корреляция с остальным тестом), выбор вариантов, медиана времени и флаги. Считается по последним завершённым попыткам (не больше sampleLimit). ADMIN — любой квиз; куратор — квизы своих курсов (автор или соавтор).',
      access: RESULTS_ALL_ROLES,
      params: idParam('quizId', 'Идентификатор квиза'),
      ok: { status: 200, description: 'Анализ', schema: quizAnalysisSchema },
      also: {
        ...noQuiz,
        403: { description: 'Куратор не автор курса этого квиза', example: ANALYSIS_MSG.notCourseCurator },
      },
    }),
  },
  '/api/reviews/{attemptId}/{questionId}': {
    post: route(tag, {
      summary: 'Оценить ответ',
      description:
        'Баллы (от 0 до баллов вопроса) и комментарий, который увидит учащийся. Итог попытки пересчитывается; когда ничего не ждёт проверки, он окончательный.',
      access: RESULTS_ALL_ROLES,
      params: z.object({
        attemptId: z.string().meta({ description: 'Идентификатор попытки', example: EXAMPLE_ID }),
        questionId: z.string().meta({ description: 'Идентификатор вопроса', example: 'q1' }),
      }),
      body: reviewInputSchema,
      example: { score: 1, comment: 'Верно, но без примеров' },
      ok: { status: 200, description: 'Попытка с оценкой', schema: attemptDetailSchema },
      also: {
        404: { description: 'Такого ответа на проверке нет', example: REVIEW_MSG.notFound },
        403: { description: 'Куратор не автор курса этой попытки', example: REVIEW_MSG.notCourseCurator },
      },
    }),
  },
};
