import { CONTENT_MSG, GENERATION_MSG, formatMessage, generateCourseSchema, regenerateSchema } from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { courseBuilders } from '../../policies/generation';
import { courseSchema } from '../courses/schema';
import { generationConfigSchema, generationJobSchema, jobParams } from './schema';

/** The builder's own limits (`generation/limits`, taken after the input's check, in the handler): not the kit's rate limit. */
const tooManyJobs = {
  description: 'Слишком много генераций или исчерпан дневной лимит ИИ',
  example: formatMessage(GENERATION_MSG.rateLimited, { minutes: 10 }),
};
const noJob = { description: 'Генерации нет или она чужая', example: GENERATION_MSG.jobNotFound };

export const getGenerationConfig = defineRoute({
  method: 'GET',
  path: '/api/generations/config',
  operationId: 'getGenerationConfig',
  summary: 'Чем работает конструктор (шаблон или ИИ)',
  access: courseBuilders,
  ok: { status: 200, description: 'Источник и пояснение', schema: generationConfigSchema },
});

export const generateCourse = defineRoute({
  method: 'POST',
  path: '/api/courses/generate',
  operationId: 'generateCourse',
  summary: 'Сгенерировать курс',
  description: 'Запускает задание и сразу отвечает 202; ход задания — `GET /api/generations/{id}`.',
  access: courseBuilders,
  body: generateCourseSchema,
  example: { topic: 'Охрана труда', audience: 'Новые сотрудники склада', goals: ['Знать правила безопасности'] },
  ok: { status: 202, description: 'Задание запущено', schema: generationJobSchema },
  also: { 429: tooManyJobs },
});

export const regenerateCoursePart = defineRoute({
  method: 'POST',
  path: '/api/generations/regenerate',
  operationId: 'regenerateCoursePart',
  summary: 'Перегенерировать модуль, урок или квиз (предложение)',
  description: 'Ничего не меняет до `POST /api/generations/{id}/accept`.',
  access: courseBuilders,
  body: regenerateSchema,
  example: { target: 'lesson', id: '6743a1f0c2b5e80012ab34cd', instructions: 'больше практики' },
  ok: { status: 202, description: 'Задание запущено', schema: generationJobSchema },
  also: { 404: { description: 'Модуля или урока нет', example: CONTENT_MSG.blockNotFound }, 429: tooManyJobs },
});

export const getGeneration = defineRoute({
  method: 'GET',
  path: '/api/generations/:id',
  operationId: 'getGeneration',
  summary: 'Ход генерации',
  description: 'Чужое задание куратору не видно (404); ADMIN видит любое.',
  access: courseBuilders,
  params: jobParams,
  ok: { status: 200, description: 'Задание', schema: generationJobSchema },
  also: { 404: noJob },
});

export const cancelGeneration = defineRoute({
  method: 'DELETE',
  path: '/api/generations/:id',
  operationId: 'cancelGeneration',
  summary: 'Остановить генерацию или отклонить предложение',
  access: courseBuilders,
  params: jobParams,
  ok: { status: 200, description: 'Задание после отмены', schema: generationJobSchema },
  also: { 404: noJob, 409: { description: 'Задание уже завершено', example: GENERATION_MSG.alreadyFinished } },
});

export const acceptGeneration = defineRoute({
  method: 'POST',
  path: '/api/generations/:id/accept',
  operationId: 'acceptGeneration',
  summary: 'Принять предложение перегенерации',
  access: courseBuilders,
  params: jobParams,
  ok: { status: 200, description: 'Курс после замены', schema: courseSchema },
  also: { 404: noJob, 409: { description: 'Принимать нечего', example: GENERATION_MSG.notAProposal } },
});

/** The config before `:id`, as the router must match them. */
export const generationRoutes = [
  getGenerationConfig,
  generateCourse,
  regenerateCoursePart,
  getGeneration,
  cancelGeneration,
  acceptGeneration,
] as const;
