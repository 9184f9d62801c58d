import { BANK_MSG, CONTENT_MSG, bankListQuerySchema, bankQuestionInputSchema } from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { bankAuthoring } from '../../policies/quizzes';
import { AUTHORING_RULE } from '../../policies/content';
import { bankPageSchema, bankParams, bankQuestionParams, bankQuestionSchema, etagHeader } from './schema';

const noCourse = { 404: { description: 'Курса нет или он скрыт от этого человека', example: CONTENT_MSG.courseNotFound } };
const noQuestion = { 404: { description: 'Такого вопроса в банке курса нет', example: BANK_MSG.notFound } };

export const listBankQuestions = defineRoute({
  method: 'GET',
  path: '/api/courses/:courseId/bank',
  operationId: 'listBankQuestions',
  summary: 'Банк вопросов курса',
  description: 'Страница вопросов (новые первыми), по метке `tag`; и все метки банка с числом вопросов.',
  access: bankAuthoring,
  params: bankParams,
  query: bankListQuerySchema,
  ok: { status: 200, description: 'Страница банка', schema: bankPageSchema },
  also: noCourse,
});

export const createBankQuestion = defineRoute({
  method: 'POST',
  path: '/api/courses/:courseId/bank',
  operationId: 'createBankQuestion',
  summary: 'Добавить вопрос в банк',
  description: `${AUTHORING_RULE} Идентификатор вопроса банк даёт сам (\`bank-<id>\`); присланный не хранится.`,
  access: bankAuthoring,
  params: bankParams,
  body: bankQuestionInputSchema,
  example: {
    tags: ['охрана труда'],
    question: {
      id: 'q1',
      type: 'single_choice',
      question: 'Сколько дней отпуска?',
      options: ['14', '28'],
      correctAnswers: [1],
    },
  },
  ok: { status: 201, description: 'Вопрос добавлен', schema: bankQuestionSchema, headers: etagHeader },
  also: noCourse,
});

export const getBankQuestion = defineRoute({
  method: 'GET',
  path: '/api/courses/:courseId/bank/:questionId',
  operationId: 'getBankQuestion',
  summary: 'Вопрос банка',
  access: bankAuthoring,
  params: bankQuestionParams,
  ok: { status: 200, description: 'Вопрос', schema: bankQuestionSchema, headers: etagHeader },
  also: noQuestion,
});

export const updateBankQuestion = defineRoute({
  method: 'PUT',
  path: '/api/courses/:courseId/bank/:questionId',
  operationId: 'updateBankQuestion',
  summary: 'Изменить вопрос банка',
  description: `${AUTHORING_RULE} Попытки, уже вытянувшие вопрос, хранят его прежним.`,
  access: bankAuthoring,
  params: bankQuestionParams,
  body: bankQuestionInputSchema,
  example: {
    tags: ['охрана труда'],
    question: { id: 'q1', type: 'true_false', question: 'Инструктаж обязателен', correctAnswer: 'true' },
    version: 3,
  },
  versioned: true,
  ok: { status: 200, description: 'Вопрос после изменения', schema: bankQuestionSchema, headers: etagHeader },
  also: noQuestion,
});

export const deleteBankQuestion = defineRoute({
  method: 'DELETE',
  path: '/api/courses/:courseId/bank/:questionId',
  operationId: 'deleteBankQuestion',
  summary: 'Удалить вопрос из банка',
  description: AUTHORING_RULE,
  access: bankAuthoring,
  params: bankQuestionParams,
  ok: { status: 204, description: 'Удалён' },
  also: noQuestion,
});

export const bankRoutes = [
  listBankQuestions,
  createBankQuestion,
  getBankQuestion,
  updateBankQuestion,
  deleteBankQuestion,
] as const;
