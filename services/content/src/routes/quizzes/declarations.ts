import { z } from 'zod';
import { CONTENT_MSG, QUIZ_MSG, quizCreateSchema, quizListQuerySchema, quizUpdateSchema } from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { AUTHORING_RULE } from '../../policies/content';
import { quizAuthoring, quizReaders } from '../../policies/quizzes';
import { learnerQuizSchema, quizParams, quizSchema, quizSummarySchema } from './schema';

export const noQuiz = { 404: { description: 'Квиза нет', example: QUIZ_MSG.quizNotFound } };

export const listQuizzes = defineRoute({
  method: 'GET',
  path: '/api/quizzes',
  operationId: 'listQuizzes',
  summary: 'Квизы (для выбора в уроке)',
  access: quizAuthoring,
  query: quizListQuerySchema,
  ok: { status: 200, description: 'Квизы', schema: z.array(quizSummarySchema) },
});

export const createQuiz = defineRoute({
  method: 'POST',
  path: '/api/quizzes',
  operationId: 'createQuiz',
  summary: 'Создать квиз',
  access: quizAuthoring,
  body: quizCreateSchema,
  example: {
    title: 'Итоговый тест',
    courseId: '6743a1f0c2b5e80012ab34cd',
    questions: [
      {
        id: 'q1',
        type: 'single_choice',
        question: 'Куда звонить при пожаре?',
        options: ['101', '103'],
        correctAnswers: [0],
      },
    ],
    settings: { passingScore: 70, maxAttempts: 3 },
  },
  ok: { status: 201, description: 'Квиз создан', schema: quizSchema },
  also: { 404: { description: 'Курса нет или он скрыт от этого человека', example: CONTENT_MSG.courseNotFound } },
});

export const getQuiz = defineRoute({
  method: 'GET',
  path: '/api/quizzes/:id',
  operationId: 'getQuiz',
  summary: 'Квиз',
  description: 'Автор курса получает квиз целиком; остальные — без правильных ответов и пояснений.',
  access: quizReaders,
  params: quizParams,
  ok: { status: 200, description: 'Квиз', schema: z.union([quizSchema, learnerQuizSchema]) },
  also: noQuiz,
  without: [403],
});

export const updateQuiz = defineRoute({
  method: 'PATCH',
  path: '/api/quizzes/:id',
  operationId: 'updateQuiz',
  summary: 'Изменить квиз',
  description: AUTHORING_RULE,
  access: quizAuthoring,
  params: quizParams,
  body: quizUpdateSchema,
  example: { title: 'Итоговый тест (новая редакция)', version: 3 },
  versioned: true,
  ok: { status: 200, description: 'Квиз после изменения', schema: quizSchema },
  also: noQuiz,
});

export const deleteQuiz = defineRoute({
  method: 'DELETE',
  path: '/api/quizzes/:id',
  operationId: 'deleteQuiz',
  summary: 'Удалить квиз',
  description: AUTHORING_RULE,
  access: quizAuthoring,
  params: quizParams,
  ok: { status: 204, description: 'Удалён' },
  also: noQuiz,
});

export const quizRoutes = [listQuizzes, createQuiz, getQuiz, updateQuiz, deleteQuiz] as const;
