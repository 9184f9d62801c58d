import { z } from 'zod';
import {
  CONSENT_MSG,
  CONTENT_MSG,
  TOTAL_COUNT_HEADER,
  coAuthorAddSchema,
  courseCreateSchema,
  courseListQuerySchema,
  courseUpdateSchema,
  markedCoursesQuerySchema,
} from '@portal/contracts';
import { defineRoute, type Answer, type Refusal } from '@portal/service-kit';
import { AUTHORING_RULE, courseAuthoring, courseReaders } from '../../policies/content';
import {
  archivedCourseSchema,
  courseAuthorsSchema,
  courseIdParams,
  courseOutlineSchema,
  courseSchema,
  courseSummarySchema,
  etagHeader,
  EXAMPLE_ID,
} from './schema';

const params = courseIdParams();
const noCourse: Refusal = { description: 'Курса нет или он скрыт от этого человека', example: CONTENT_MSG.courseNotFound };

/** A page of courses: the list itself, the total in a header. */
const coursePage: { status: 200 } & Answer = {
  status: 200,
  description: 'Страница курсов',
  schema: z.array(courseSummarySchema),
  headers: z.object({
    [TOTAL_COUNT_HEADER]: z.string().meta({ description: 'Сколько курсов подходит под запрос всего', example: '57' }),
  }),
};
const pageDescription = `Страница курсов; всего подходящих — в заголовке \`${TOTAL_COUNT_HEADER}\`. Учащиеся видят только опубликованные.`;

export const listCourses = defineRoute({
  method: 'GET',
  path: '/api/courses',
  operationId: 'listCourses',
  summary: 'Каталог курсов',
  description: pageDescription,
  access: courseReaders,
  query: courseListQuerySchema,
  ok: coursePage,
  without: [403],
});

export const listFavoriteCourses = defineRoute({
  method: 'GET',
  path: '/api/courses/favorites/my',
  operationId: 'listFavoriteCourses',
  summary: 'Избранные курсы',
  description: pageDescription,
  access: courseReaders,
  query: markedCoursesQuerySchema,
  ok: coursePage,
  without: [403],
});

export const listStartedCourses = defineRoute({
  method: 'GET',
  path: '/api/courses/started/my',
  operationId: 'listStartedCourses',
  summary: 'Начатые курсы',
  description: pageDescription,
  access: courseReaders,
  query: markedCoursesQuerySchema,
  ok: coursePage,
  without: [403],
});

/** One course by anyone signed in (a hidden one is 404): it carries an ETag, and an unchanged course answers 304. */
export const getCourse = defineRoute({
  method: 'GET',
  path: '/api/courses/:id',
  operationId: 'getCourse',
  summary: 'Курс с модулями, уроками и блоками',
  description: 'Ответ несёт ETag; с `If-None-Match` неизменённый курс отвечает 304.',
  access: courseReaders,
  params,
  ok: { status: 200, description: 'Курс', schema: courseSchema, headers: etagHeader },
  alsoOk: { 304: { description: 'Курс не изменился' } },
  also: { 404: noCourse },
  without: [403],
});

/** Not in the spec's table: the structure without lesson content, for the editor and study mode. */
export const getCourseOutline = defineRoute({
  method: 'GET',
  path: '/api/courses/:id/outline',
  operationId: 'getCourseOutline',
  summary: 'Структура курса без содержимого уроков',
  access: courseReaders,
  params,
  ok: { status: 200, description: 'Структура курса', schema: courseOutlineSchema, headers: etagHeader },
  alsoOk: { 304: { description: 'Курс не изменился' } },
  also: { 404: noCourse },
  without: [403],
});

export const createCourse = defineRoute({
  method: 'POST',
  path: '/api/courses',
  operationId: 'createCourse',
  summary: 'Создать курс',
  access: courseAuthoring,
  body: courseCreateSchema,
  example: {
    title: 'Охрана труда',
    description: 'Базовый курс для новых сотрудников',
    price: 0,
    duration: 120,
    level: 'Начальный',
  },
  ok: { status: 201, description: 'Курс создан', schema: courseSchema },
});

export const updateCourse = defineRoute({
  method: 'PATCH',
  path: '/api/courses/:id',
  operationId: 'updateCourse',
  summary: 'Изменить курс',
  description: AUTHORING_RULE,
  access: courseAuthoring,
  params,
  body: courseUpdateSchema,
  example: { title: 'Охрана труда 2027', status: 'published', version: 3 },
  versioned: true,
  ok: { status: 200, description: 'Курс после изменения', schema: courseSummarySchema },
  also: { 404: noCourse },
});

export const deleteCourse = defineRoute({
  method: 'DELETE',
  path: '/api/courses/:id',
  operationId: 'deleteCourse',
  summary: 'Удалить курс',
  description: `${AUTHORING_RULE} Курс, в котором у учащихся есть попытки или прогресс, куратор не удаляет, а скрывает в архив (ответ 200).`,
  access: courseAuthoring,
  params,
  // The archive is the answer with a body, so the handler sets the 204 of a course deleted outright.
  ok: { status: 200, description: 'Курс скрыт в архив', schema: archivedCourseSchema },
  alsoOk: { 204: { description: 'Курс удалён' } },
  also: { 404: noCourse },
});

/** Not in the spec's table: the card's copy action (its behaviour is "not shown"). */
export const copyCourse = defineRoute({
  method: 'POST',
  path: '/api/courses/:id/copy',
  operationId: 'copyCourse',
  summary: 'Копия курса',
  access: courseAuthoring,
  params,
  ok: { status: 201, description: 'Копия создана, её владелец — копирующий', schema: courseSchema },
  also: { 404: noCourse },
});

/** Not in the spec's table: the owner and co-authors; the owner or an ADMIN changes the co-authors. */
export const listCourseAuthors = defineRoute({
  method: 'GET',
  path: '/api/courses/:id/authors',
  operationId: 'listCourseAuthors',
  summary: 'Владелец и соавторы курса',
  access: courseAuthoring,
  params,
  ok: { status: 200, description: 'Авторы', schema: courseAuthorsSchema },
  also: { 404: noCourse },
});

export const addCourseCoAuthor = defineRoute({
  method: 'POST',
  path: '/api/courses/:id/authors',
  operationId: 'addCourseCoAuthor',
  summary: 'Добавить соавтора (по email или id)',
  description: 'Соавторов добавляет владелец курса или ADMIN.',
  access: courseAuthoring,
  params,
  body: coAuthorAddSchema,
  example: { email: 'maria.curator@example.ru' },
  ok: { status: 200, description: 'Авторы после изменения', schema: courseAuthorsSchema },
  also: { 404: noCourse },
});

export const removeCourseCoAuthor = defineRoute({
  method: 'DELETE',
  path: '/api/courses/:id/authors/:userId',
  operationId: 'removeCourseCoAuthor',
  summary: 'Убрать соавтора',
  access: courseAuthoring,
  params: params.extend({ userId: z.string().meta({ description: 'Идентификатор соавтора', example: EXAMPLE_ID }) }),
  ok: { status: 200, description: 'Авторы после изменения', schema: courseAuthorsSchema },
  also: { 404: noCourse },
});

const marked = { status: 200, description: 'Курс с отметкой', schema: courseSummarySchema } as const;

export const addFavoriteCourse = defineRoute({
  method: 'POST',
  path: '/api/courses/:id/favorite',
  operationId: 'addFavoriteCourse',
  summary: 'Добавить в избранное',
  access: courseReaders,
  params,
  ok: marked,
  also: { 404: noCourse },
  without: [403],
});

export const removeFavoriteCourse = defineRoute({
  method: 'DELETE',
  path: '/api/courses/:id/favorite',
  operationId: 'removeFavoriteCourse',
  summary: 'Убрать из избранного',
  access: courseReaders,
  params,
  ok: marked,
  also: { 404: noCourse },
  without: [403],
});

export const markCourseStarted = defineRoute({
  method: 'POST',
  path: '/api/courses/:id/start',
  operationId: 'markCourseStarted',
  summary: 'Отметить курс начатым',
  description: 'Начать курс — обучение: нужно действующее согласие на обработку персональных данных.',
  access: courseReaders,
  params,
  ok: marked,
  also: {
    403: {
      description: 'Роли не хватает прав, или нет действующего согласия на обработку персональных данных',
      example: CONSENT_MSG.neededToStudy,
    },
    404: noCourse,
  },
});

/** In the order Koa must try them: the fixed paths (`favorites/my`) before `:id`. */
export const courseRoutes = [
  listCourses,
  createCourse,
  listFavoriteCourses,
  listStartedCourses,
  getCourse,
  updateCourse,
  deleteCourse,
  getCourseOutline,
  copyCourse,
  listCourseAuthors,
  addCourseCoAuthor,
  removeCourseCoAuthor,
  addFavoriteCourse,
  removeFavoriteCourse,
  markCourseStarted,
] as const;
