import { REVIEW_MSG, reviewInputSchema, reviewsQuerySchema } from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { gradeAnswers } from '../../policies/results';
import { attemptDetailSchema } from '../results/schema';
import { reviewPageSchema, reviewParams } from './schema';

/** «Проверка ответов»: long answers and files waiting for a person. */
export const listReviews = defineRoute({
  method: 'GET',
  path: '/api/reviews',
  operationId: 'listReviews',
  summary: 'Проверка ответов: попытки, ждущие куратора',
  description:
    'Развёрнутые ответы и файлы, которые оценивает человек. Страница — попытки «на проверке» (старые первыми), каждая со всеми ждущими ответами. Куратор видит ответы своих курсов (автор или соавтор), ADMIN — всех.',
  access: gradeAnswers,
  query: reviewsQuerySchema,
  ok: { status: 200, description: 'Страница ответов на проверке', schema: reviewPageSchema },
});

export const gradeAnswer = defineRoute({
  method: 'POST',
  path: '/api/reviews/:attemptId/:questionId',
  operationId: 'gradeAnswer',
  summary: 'Оценить ответ',
  description:
    'Баллы (от 0 до баллов вопроса) и комментарий, который увидит учащийся. Итог попытки пересчитывается; когда ничего не ждёт проверки, он окончательный.',
  access: gradeAnswers,
  params: reviewParams,
  body: reviewInputSchema,
  example: { score: 1, comment: 'Верно, но без примеров' },
  ok: { status: 200, description: 'Попытка с оценкой', schema: attemptDetailSchema },
  also: {
    404: { description: 'Такого ответа на проверке нет', example: REVIEW_MSG.notFound },
    403: { description: 'Куратор не автор курса этой попытки', example: REVIEW_MSG.notCourseCurator },
  },
});
