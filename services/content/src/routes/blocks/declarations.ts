import { z } from 'zod';
import { CONTENT_MSG, blockCreateSchema, blockImportSchema, blockReorderSchema, blockUpdateSchema } from '@portal/contracts';
import { defineRoute, type Refusal } from '@portal/service-kit';
import { AUTHORING_RULE, courseAuthoring, courseReaders } from '../../policies/content';
import { EXAMPLE_ID, courseIdParams, etagHeader } from '../courses/schema';
import { blockParams, blockRecordSchema, blockSummarySchema } from './schema';

const noCourse: Refusal = { description: 'Курса нет или он скрыт от этого человека', example: CONTENT_MSG.courseNotFound };
const noBlock: Refusal = { description: 'Модуля или урока нет', example: CONTENT_MSG.blockNotFound };

export const listCourseBlocks = defineRoute({
  method: 'GET',
  path: '/api/blocks/course/:courseId',
  operationId: 'listCourseBlocks',
  summary: 'Модули и уроки курса',
  access: courseReaders,
  params: courseIdParams('courseId'),
  ok: { status: 200, description: 'Записи модулей и уроков', schema: z.array(blockRecordSchema) },
  also: { 404: noCourse },
  without: [403],
});

export const reorderBlocks = defineRoute({
  method: 'POST',
  path: '/api/blocks/reorder',
  operationId: 'reorderBlocks',
  summary: 'Новый порядок модулей и уроков (и перенос урока в другой модуль)',
  access: courseAuthoring,
  body: blockReorderSchema,
  example: { blocks: [{ id: EXAMPLE_ID, position: 0 }] },
  ok: { status: 200, description: 'Модули и уроки курса в новом порядке', schema: z.array(blockSummarySchema) },
  also: { 404: noBlock },
});

/** Not in the spec's table: the editor's 'Import lessons' (copies of lessons of any course, at the end of a module). */
export const importLessons = defineRoute({
  method: 'POST',
  path: '/api/blocks/import',
  operationId: 'importLessons',
  summary: 'Скопировать уроки (любого курса) в конец модуля',
  access: courseAuthoring,
  body: blockImportSchema,
  example: { courseId: EXAMPLE_ID, moduleId: EXAMPLE_ID, lessonIds: [EXAMPLE_ID] },
  ok: { status: 201, description: 'Копии уроков', schema: z.array(blockRecordSchema) },
  also: { 404: noBlock },
});

/** Not in the spec's table: the lesson editor's copy, '<title> (копия)' right after the original. */
export const copyLesson = defineRoute({
  method: 'POST',
  path: '/api/blocks/:id/copy',
  operationId: 'copyLesson',
  summary: 'Копия урока в том же модуле',
  access: courseAuthoring,
  params: blockParams,
  ok: { status: 201, description: 'Копия', schema: blockRecordSchema },
  also: { 404: noBlock },
});

/** One block, as study mode opens a lesson: kept per course version (commands/lessonCache.ts). */
export const getBlock = defineRoute({
  method: 'GET',
  path: '/api/blocks/:id',
  operationId: 'getBlock',
  summary: 'Модуль или урок с содержимым',
  access: courseReaders,
  params: blockParams,
  ok: { status: 200, description: 'Запись', schema: blockRecordSchema, headers: etagHeader },
  also: { 404: noBlock },
  without: [403],
});

export const createBlock = defineRoute({
  method: 'POST',
  path: '/api/blocks',
  operationId: 'createBlock',
  summary: 'Создать модуль или урок',
  description: `Урок, если \`type\` не MODULE. С \`id\`, выбранным клиентом, повторный запрос (после 503 или потерянного ответа) отвечает записью, созданной первым, а не создаёт вторую. ${AUTHORING_RULE}`,
  access: courseAuthoring,
  body: blockCreateSchema,
  example: { type: 'LESSON', courseId: EXAMPLE_ID, moduleId: EXAMPLE_ID, title: 'Средства защиты' },
  ok: { status: 201, description: 'Создано (или создано раньше тем же запросом)', schema: blockRecordSchema },
  also: { 404: noCourse, 409: { description: 'Идентификатор занят другой записью', example: CONTENT_MSG.blockIdTaken } },
});

export const updateBlock = defineRoute({
  method: 'PATCH',
  path: '/api/blocks/:id',
  operationId: 'updateBlock',
  summary: 'Изменить модуль или урок',
  description: AUTHORING_RULE,
  access: courseAuthoring,
  params: blockParams,
  body: blockUpdateSchema,
  example: {
    title: 'Средства защиты',
    content: [{ type: 'text', content: { text: 'Каска защищает голову.' } }],
    version: 3,
  },
  versioned: true,
  // A summary: the autosave that sends this already holds the content, so it is not sent back.
  ok: { status: 200, description: 'Запись после изменения (без содержимого урока)', schema: blockSummarySchema },
  also: { 404: noBlock },
});

export const deleteBlock = defineRoute({
  method: 'DELETE',
  path: '/api/blocks/:id',
  operationId: 'deleteBlock',
  summary: 'Удалить модуль (с уроками) или урок',
  description: AUTHORING_RULE,
  access: courseAuthoring,
  params: blockParams,
  ok: { status: 204, description: 'Удалено' },
  also: { 404: noBlock },
});

/** In the order Koa must try them: the fixed paths (`reorder`, `import`) before `:id`. */
export const blockRoutes = [
  listCourseBlocks,
  createBlock,
  reorderBlocks,
  importLessons,
  getBlock,
  updateBlock,
  deleteBlock,
  copyLesson,
] as const;
