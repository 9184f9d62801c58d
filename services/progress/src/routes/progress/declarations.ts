import { z } from 'zod';
import { PROGRESS_MSG, lessonCompleteSchema } from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { noConsent } from '../../policies/consent';
import { ownProgress } from '../../policies/progress';
import {
  courseParams,
  courseProgressSchema,
  lessonCompleteResultSchema,
  lessonCompletionSchema,
  lessonParams,
  myCourseProgressSchema,
} from './schema';

const noCourse = { description: 'Курса нет или он скрыт от этого человека', example: PROGRESS_MSG.courseNotFound };

/** Completing twice changes nothing (201 the first time, 200 after). */
export const completeLesson = defineRoute({
  method: 'POST',
  path: '/api/progress/lesson/:lessonId/complete',
  operationId: 'completeLesson',
  summary: 'Отметить урок пройденным',
  description:
    'Повторная отметка ничего не меняет и отвечает 200. Урок с тестом засчитывается прохождением теста: до него ответ 409.',
  access: ownProgress,
  params: lessonParams,
  body: lessonCompleteSchema,
  example: { courseId: '6743a1f0c2b5e80012ab34cd' },
  idempotent: true,
  ok: { status: 201, description: 'Урок отмечен', schema: lessonCompleteResultSchema },
  alsoOk: { 200: { description: 'Урок уже был отмечен', schema: lessonCompleteResultSchema } },
  also: {
    404: noCourse,
    403: noConsent,
    409: { description: 'В уроке тест: урок засчитывается, когда тест пройден', example: PROGRESS_MSG.lessonNeedsQuiz },
  },
});

export const getCourseProgress = defineRoute({
  method: 'GET',
  path: '/api/progress/course/:courseId',
  operationId: 'getCourseProgress',
  summary: 'Прогресс по курсу',
  access: ownProgress,
  params: courseParams,
  ok: { status: 200, description: 'Прогресс', schema: courseProgressSchema },
  also: { 404: noCourse },
});

/** The completed-lesson records of one course (spec: a list with lessonId), oldest first. */
export const listCompletedLessons = defineRoute({
  method: 'GET',
  path: '/api/progress/course/:courseId/lessons',
  operationId: 'listCompletedLessons',
  summary: 'Пройденные уроки курса',
  access: ownProgress,
  params: courseParams,
  ok: { status: 200, description: 'Отметки уроков', schema: z.array(lessonCompletionSchema) },
  also: { 404: noCourse },
});

/** The signed-in person's own completed lessons, grouped by course, most recent first. */
export const listMyProgress = defineRoute({
  method: 'GET',
  path: '/api/progress/my',
  operationId: 'listMyProgress',
  summary: 'Мой прогресс по всем курсам',
  access: ownProgress,
  ok: { status: 200, description: 'По курсу на элемент', schema: z.array(myCourseProgressSchema) },
});
