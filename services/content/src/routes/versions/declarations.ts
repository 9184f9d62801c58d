import { z } from 'zod';
import {
  CONTENT_MSG,
  STAFF_ROLES,
  VERSION_MSG,
  compareVersionsQuerySchema,
  discardDraftSchema,
  entityIdField,
  pruneVersionsSchema,
  publishVersionSchema,
  versionLessonParamsSchema,
  versionParamsSchema,
  versionsPageQuerySchema,
} from '@portal/contracts';
import { definePolicy, defineRoute } from '@portal/service-kit';
import {
  courseVersionPageSchema,
  courseVersionSchema,
  draftStateSchema,
  pruneAnswerSchema,
  versionDiffSchema,
  versionLessonSchema,
  versionOutlineSchema,
} from './schema';

/**
 * A course's versions are its authors': ADMIN any course, a CURATOR one they own or co-author (the
 * course's own rule follows its load, 403 otherwise). Learners only ever read the current version,
 * through the ordinary course routes.
 */
export const courseAuthors = definePolicy('courseAuthors', STAFF_ROLES);

const courseParams = z.object({ id: entityIdField('id') });
const notYours = { description: 'Курс не ваш', example: CONTENT_MSG.courseAuthorsOnly };
const noCourse = { description: 'Курса нет', example: CONTENT_MSG.courseNotFound };
const noVersion = { description: 'Курса или версии нет', example: VERSION_MSG.notFound };

export const getCourseDraft = defineRoute({
  method: 'GET',
  path: '/api/courses/:id/draft',
  operationId: 'getCourseDraft',
  summary: 'Черновик курса',
  description: [
    'Какая версия опубликована и чем черновик от неё отличается: модули, уроки и квизы добавленные, удалённые',
    'и изменённые, вопросы банка, блоки внутри изменённых уроков. Пока у курса нет версий (его ещё никто не начал',
    'изучать), правки сразу видны ученикам: `versioned` = false.',
  ].join(' '),
  access: courseAuthors,
  params: courseParams,
  ok: { status: 200, description: 'Состояние черновика', schema: draftStateSchema },
  also: { 403: notYours, 404: noCourse },
});

export const publishCourseVersion = defineRoute({
  method: 'POST',
  path: '/api/courses/:id/versions',
  operationId: 'publishCourseVersion',
  summary: 'Опубликовать изменения',
  description: [
    'Черновик становится следующей версией, атомарно: ученики переходят на неё, начатые попытки завершаются',
    'на своей версии. `basedOn` — опубликованная версия, которую видел автор (null — версий ещё нет): если с тех пор',
    'опубликовали другую, 412. `retakeLessonIds` — изменённые уроки, которые ученики должны пройти заново.',
  ].join(' '),
  access: courseAuthors,
  params: courseParams,
  body: publishVersionSchema,
  example: { summary: 'Обновлён раздел о средствах защиты', basedOn: 2, retakeLessonIds: [] },
  ok: { status: 201, description: 'Новая версия', schema: courseVersionSchema },
  also: {
    403: notYours,
    404: noCourse,
    409: {
      description: 'Курс не опубликован, или публиковать нечего, или курс сейчас меняют',
      example: VERSION_MSG.nothingToPublish,
    },
    412: { description: 'Опубликована другая версия', example: VERSION_MSG.stalePublished },
  },
  audit: ['course.versionPublished'],
});

export const discardCourseDraft = defineRoute({
  method: 'POST',
  path: '/api/courses/:id/draft/discard',
  operationId: 'discardCourseDraft',
  summary: 'Отменить изменения',
  description:
    'Черновик снова становится опубликованной версией: правки после неё теряются. `basedOn` — опубликованная версия, которую видел автор.',
  access: courseAuthors,
  params: courseParams,
  body: discardDraftSchema,
  example: { basedOn: 2 },
  ok: { status: 200, description: 'Черновик после отмены', schema: draftStateSchema },
  also: {
    403: notYours,
    404: noCourse,
    409: { description: 'Отменять нечего', example: VERSION_MSG.nothingToDiscard },
    412: { description: 'Опубликована другая версия', example: VERSION_MSG.stalePublished },
  },
  audit: ['course.draftDiscarded'],
});

export const listCourseVersions = defineRoute({
  method: 'GET',
  path: '/api/courses/:id/versions',
  operationId: 'listCourseVersions',
  summary: 'История версий курса',
  description: 'Опубликованные версии, новые первыми: номер, кто и когда опубликовал, описание и что изменилось.',
  access: courseAuthors,
  params: courseParams,
  query: versionsPageQuerySchema,
  ok: { status: 200, description: 'Страница версий', schema: courseVersionPageSchema },
  also: { 403: notYours, 404: noCourse },
});

export const compareCourseVersions = defineRoute({
  method: 'GET',
  path: '/api/courses/:id/versions/compare',
  operationId: 'compareCourseVersions',
  summary: 'Сравнить две версии',
  description: 'Что изменилось от версии `from` к версии `to`: модули, уроки, квизы, вопросы банка и блоки внутри уроков.',
  access: courseAuthors,
  params: courseParams,
  query: compareVersionsQuerySchema,
  ok: { status: 200, description: 'Различия', schema: versionDiffSchema },
  also: { 403: notYours, 404: noVersion },
});

export const getCourseVersion = defineRoute({
  method: 'GET',
  path: '/api/courses/:id/versions/:number',
  operationId: 'getCourseVersion',
  summary: 'Версия курса',
  description: 'Модули и уроки версии так, как их видел ученик (без скрытых модулей и черновиков уроков).',
  access: courseAuthors,
  params: versionParamsSchema,
  ok: { status: 200, description: 'Оглавление версии', schema: versionOutlineSchema },
  also: { 403: notYours, 404: noVersion },
});

export const getCourseVersionLesson = defineRoute({
  method: 'GET',
  path: '/api/courses/:id/versions/:number/lessons/:lessonId',
  operationId: 'getCourseVersionLesson',
  summary: 'Урок версии',
  description: 'Урок с блоками, каким он был в этой версии (только для чтения).',
  access: courseAuthors,
  params: versionLessonParamsSchema,
  ok: { status: 200, description: 'Урок', schema: versionLessonSchema },
  also: { 403: notYours, 404: { description: 'В версии нет такого урока', example: VERSION_MSG.lessonNotInVersion } },
});

export const restoreCourseVersion = defineRoute({
  method: 'POST',
  path: '/api/courses/:id/versions/:number/restore',
  operationId: 'restoreCourseVersion',
  summary: 'Восстановить как черновик',
  description: 'Версия становится черновиком курса; ученики продолжают видеть опубликованную, пока её не опубликуют.',
  access: courseAuthors,
  params: versionParamsSchema,
  ok: { status: 200, description: 'Черновик после восстановления', schema: draftStateSchema },
  also: { 403: notYours, 404: noVersion },
  audit: ['course.versionRestored'],
});

export const pruneCourseVersions = defineRoute({
  method: 'POST',
  path: '/api/courses/:id/versions/prune',
  operationId: 'pruneCourseVersions',
  summary: 'Очистить старые версии',
  description:
    'Оставляет `keep` последних версий, текущую и те, на которых начаты попытки; остальные удаляются вместе с содержимым, на которое больше никто не ссылается.',
  access: courseAuthors,
  params: courseParams,
  body: pruneVersionsSchema,
  example: { keep: 20 },
  ok: { status: 200, description: 'Удалённые версии', schema: pruneAnswerSchema },
  also: { 403: notYours, 404: noCourse },
  audit: ['course.versionsPruned'],
});

export const versionRoutes = [
  getCourseDraft,
  publishCourseVersion,
  discardCourseDraft,
  listCourseVersions,
  compareCourseVersions,
  pruneCourseVersions,
  getCourseVersion,
  getCourseVersionLesson,
  restoreCourseVersion,
] as const;
