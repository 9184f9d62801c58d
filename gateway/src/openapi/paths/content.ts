import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  CONTENT_MSG,
  GENERATION_MSG,
  QUIZ_MSG,
  BANK_MSG,
  bankListQuerySchema,
  bankQuestionInputSchema,
  formatMessage,
  ROLES,
  STAFF_ROLES,
  STUDY_ROLES,
  TOTAL_COUNT_HEADER,
  blockCreateSchema,
  blockImportSchema,
  blockReorderSchema,
  blockUpdateSchema,
  coAuthorAddSchema,
  courseCreateSchema,
  courseListQuerySchema,
  courseUpdateSchema,
  generateCourseSchema,
  markedCoursesQuerySchema,
  quizCreateSchema,
  quizListQuerySchema,
  quizUpdateSchema,
  regenerateSchema,
  uploadQuerySchema,
} from '@portal/contracts';
import { etagHeader, idParam, missing, noContent, route, type Answer, type RouteDoc } from '../route';
import { TAGS } from '../tags';
import {
  archivedCourseSchema,
  bankPageSchema,
  bankQuestionSchema,
  blockRecordSchema,
  blockSummarySchema,
  courseAuthorsSchema,
  courseOutlineSchema,
  courseSchema,
  courseSummarySchema,
  generationConfigSchema,
  generationJobSchema,
  learnerQuizSchema,
  quizSchema,
  quizSummarySchema,
  uploadedFileSchema,
  EXAMPLE_ID,
} from '../schemas';

const tag = TAGS.content.name;
const bankCourseId = idParam('courseId', 'Идентификатор курса');
const bankQuestionId = z.object({
  courseId: z.string().meta({ description: 'Идентификатор курса', example: EXAMPLE_ID }),
  questionId: z.string().meta({ description: 'Идентификатор вопроса банка', example: EXAMPLE_ID }),
});
const noBankQuestion = missing('Такого вопроса в банке курса нет', BANK_MSG.notFound);

const courseId = idParam('id', 'Идентификатор курса');
const blockId = idParam('id', 'Идентификатор модуля или урока');
const quizId = idParam('id', 'Идентификатор квиза');
const jobId = idParam('id', 'Идентификатор генерации');
const noCourse = missing('Курса нет или он скрыт от этого человека', CONTENT_MSG.courseNotFound);
const noBlock = missing('Модуля или урока нет', CONTENT_MSG.blockNotFound);
const noQuiz = missing('Квиза нет', QUIZ_MSG.quizNotFound);
const noJob = missing('Генерации нет или она чужая', GENERATION_MSG.jobNotFound);
const tooManyJobs = {
  description: 'Слишком много генераций или исчерпан дневной лимит ИИ',
  example: formatMessage(GENERATION_MSG.rateLimited, { minutes: 10 }),
};
const authoring = 'ADMIN меняет любой курс; CURATOR — только свой или тот, где он соавтор (чужой курс отвечает 403 или 404).';

/** A read of one course by anyone signed in (a hidden one is 404): it carries an ETag, and an unchanged course answers 304. */
const courseRead = (doc: Pick<RouteDoc, 'summary' | 'description'> & { ok: Answer }) =>
  route(tag, {
    ...doc,
    access: ROLES,
    params: courseId,
    ok: { status: 200, ...doc.ok, headers: etagHeader },
    alsoOk: { 304: { description: 'Курс не изменился' } },
    also: noCourse,
    without: [403],
  });

const coursePage = (summary: string, query: z.ZodObject) =>
  route(tag, {
    summary,
    description: `Страница курсов; всего подходящих — в заголовке \`${TOTAL_COUNT_HEADER}\`. Учащиеся видят только опубликованные.`,
    access: ROLES,
    query,
    ok: {
      status: 200,
      description: 'Страница курсов',
      schema: z.array(courseSummarySchema),
      headers: z.object({
        [TOTAL_COUNT_HEADER]: z.string().meta({ description: 'Сколько курсов подходит под запрос всего', example: '57' }),
      }),
    },
    without: [403],
  });

const mark = (summary: string) =>
  route(tag, {
    summary,
    access: ROLES,
    params: courseId,
    ok: { status: 200, description: 'Курс с отметкой', schema: courseSummarySchema },
    also: noCourse,
    without: [403],
  });

const binary = z.string().meta({ format: 'binary' });
/** POST /api/upload/file (one part named `file`) and /api/upload/files (several named `files`). */
const upload = (field: 'file' | 'files') =>
  route(tag, {
    summary: field === 'file' ? 'Загрузить файл' : 'Загрузить несколько файлов',
    description: `multipart/form-data, поле \`${field}\`${field === 'files' ? ' (несколько частей)' : ''}. Тип файла определяется по содержимому.`,
    access: STAFF_ROLES,
    query: uploadQuerySchema,
    body: z.object({ [field]: field === 'file' ? binary : z.array(binary) }),
    bodyMediaType: 'multipart/form-data',
    ok:
      field === 'file'
        ? { status: 201, description: 'Файл сохранён', schema: uploadedFileSchema }
        : { status: 201, description: 'Файлы сохранены', schema: z.array(uploadedFileSchema) },
    also: {
      413: { description: 'Файл больше допустимого или их слишком много', example: CONTENT_MSG.uploadTooLarge },
      415: { description: 'Недопустимый тип файла', example: CONTENT_MSG.uploadBadType },
      429: { description: 'Слишком много загрузок', example: formatMessage(CONTENT_MSG.uploadRateLimited, { seconds: 60 }) },
    },
  });

export const contentPaths: ZodOpenApiPathsObject = {
  '/api/courses': {
    get: coursePage('Каталог курсов', courseListQuerySchema),
    post: route(tag, {
      summary: 'Создать курс',
      access: STAFF_ROLES,
      body: courseCreateSchema,
      example: {
        title: 'Охрана труда',
        description: 'Базовый курс для новых сотрудников',
        price: 0,
        duration: 120,
        level: 'Начальный',
      },
      ok: { status: 201, description: 'Курс создан', schema: courseSchema },
    }),
  },
  '/api/courses/favorites/my': { get: coursePage('Избранные курсы', markedCoursesQuerySchema) },
  '/api/courses/started/my': { get: coursePage('Начатые курсы', markedCoursesQuerySchema) },
  '/api/courses/{id}': {
    get: courseRead({
      summary: 'Курс с модулями, уроками и блоками',
      description: 'Ответ несёт ETag; с `If-None-Match` неизменённый курс отвечает 304.',
      ok: { description: 'Курс', schema: courseSchema },
    }),
    patch: route(tag, {
      summary: 'Изменить курс',
      description: authoring,
      access: STAFF_ROLES,
      params: courseId,
      body: courseUpdateSchema,
      example: { title: 'Охрана труда 2027', status: 'published' },
      versioned: true,
      ok: { status: 200, description: 'Курс после изменения', schema: courseSummarySchema },
      also: noCourse,
    }),
    delete: route(tag, {
      summary: 'Удалить курс',
      description: `${authoring} Курс, в котором у учащихся есть попытки или прогресс, куратор не удаляет, а скрывает в архив (ответ 200).`,
      access: STAFF_ROLES,
      params: courseId,
      ok: noContent('Курс удалён'),
      alsoOk: { 200: { description: 'Курс скрыт в архив', schema: archivedCourseSchema } },
      also: noCourse,
    }),
  },
  '/api/courses/{id}/outline': {
    get: courseRead({
      summary: 'Структура курса без содержимого уроков',
      ok: { description: 'Структура курса', schema: courseOutlineSchema },
    }),
  },
  '/api/courses/{id}/copy': {
    post: route(tag, {
      summary: 'Копия курса',
      access: STAFF_ROLES,
      params: courseId,
      ok: { status: 201, description: 'Копия создана, её владелец — копирующий', schema: courseSchema },
      also: noCourse,
    }),
  },
  '/api/courses/{id}/authors': {
    get: route(tag, {
      summary: 'Владелец и соавторы курса',
      access: STAFF_ROLES,
      params: courseId,
      ok: { status: 200, description: 'Авторы', schema: courseAuthorsSchema },
      also: noCourse,
    }),
    post: route(tag, {
      summary: 'Добавить соавтора (по email или id)',
      description: 'Соавторов добавляет владелец курса или ADMIN.',
      access: STAFF_ROLES,
      params: courseId,
      body: coAuthorAddSchema,
      example: { email: 'maria.curator@example.ru' },
      ok: { status: 200, description: 'Авторы после изменения', schema: courseAuthorsSchema },
      also: noCourse,
    }),
  },
  '/api/courses/{id}/authors/{userId}': {
    delete: route(tag, {
      summary: 'Убрать соавтора',
      access: STAFF_ROLES,
      params: courseId.extend(idParam('userId', 'Идентификатор соавтора').shape),
      ok: { status: 200, description: 'Авторы после изменения', schema: courseAuthorsSchema },
      also: noCourse,
    }),
  },
  '/api/courses/{id}/favorite': { post: mark('Добавить в избранное'), delete: mark('Убрать из избранного') },
  '/api/courses/{id}/start': { post: mark('Отметить курс начатым') },

  '/api/blocks/course/{courseId}': {
    get: route(tag, {
      summary: 'Модули и уроки курса',
      access: ROLES,
      params: idParam('courseId', 'Идентификатор курса'),
      ok: { status: 200, description: 'Записи модулей и уроков', schema: z.array(blockRecordSchema) },
      also: noCourse,
      without: [403],
    }),
  },
  '/api/blocks': {
    post: route(tag, {
      summary: 'Создать модуль или урок',
      description: `Урок, если \`type\` не MODULE. ${authoring}`,
      access: STAFF_ROLES,
      body: blockCreateSchema,
      example: { type: 'LESSON', courseId: EXAMPLE_ID, moduleId: EXAMPLE_ID, title: 'Средства защиты' },
      ok: { status: 201, description: 'Создано', schema: blockRecordSchema },
      also: noCourse,
    }),
  },
  '/api/blocks/reorder': {
    post: route(tag, {
      summary: 'Новый порядок модулей и уроков (и перенос урока в другой модуль)',
      access: STAFF_ROLES,
      body: blockReorderSchema,
      example: { blocks: [{ id: EXAMPLE_ID, position: 0 }] },
      ok: { status: 200, description: 'Модули и уроки курса в новом порядке', schema: z.array(blockSummarySchema) },
      also: noBlock,
    }),
  },
  '/api/blocks/import': {
    post: route(tag, {
      summary: 'Скопировать уроки (любого курса) в конец модуля',
      access: STAFF_ROLES,
      body: blockImportSchema,
      example: { courseId: EXAMPLE_ID, moduleId: EXAMPLE_ID, lessonIds: [EXAMPLE_ID] },
      ok: { status: 201, description: 'Копии уроков', schema: z.array(blockRecordSchema) },
      also: noBlock,
    }),
  },
  '/api/blocks/{id}': {
    get: route(tag, {
      summary: 'Модуль или урок с содержимым',
      access: ROLES,
      params: blockId,
      ok: { status: 200, description: 'Запись', schema: blockRecordSchema, headers: etagHeader },
      also: noBlock,
      without: [403],
    }),
    patch: route(tag, {
      summary: 'Изменить модуль или урок',
      description: authoring,
      access: STAFF_ROLES,
      params: blockId,
      body: blockUpdateSchema,
      example: { title: 'Средства защиты', content: [{ type: 'text', content: { text: 'Каска защищает голову.' } }] },
      versioned: true,
      ok: { status: 200, description: 'Запись после изменения (без содержимого урока)', schema: blockSummarySchema },
      also: noBlock,
    }),
    delete: route(tag, {
      summary: 'Удалить модуль (с уроками) или урок',
      description: authoring,
      access: STAFF_ROLES,
      params: blockId,
      ok: noContent('Удалено'),
      also: noBlock,
    }),
  },
  '/api/blocks/{id}/copy': {
    post: route(tag, {
      summary: 'Копия урока в том же модуле',
      access: STAFF_ROLES,
      params: blockId,
      ok: { status: 201, description: 'Копия', schema: blockRecordSchema },
      also: noBlock,
    }),
  },

  '/api/quizzes': {
    get: route(tag, {
      summary: 'Квизы (для выбора в уроке)',
      access: STAFF_ROLES,
      query: quizListQuerySchema,
      ok: { status: 200, description: 'Квизы', schema: z.array(quizSummarySchema) },
    }),
    post: route(tag, {
      summary: 'Создать квиз',
      access: STAFF_ROLES,
      body: quizCreateSchema,
      example: {
        title: 'Итоговый тест',
        courseId: EXAMPLE_ID,
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
      also: noCourse,
    }),
  },
  '/api/quizzes/{id}': {
    get: route(tag, {
      summary: 'Квиз',
      description: 'Автор курса получает квиз целиком; остальные — без правильных ответов и пояснений.',
      access: ROLES,
      params: quizId,
      ok: { status: 200, description: 'Квиз', schema: z.union([quizSchema, learnerQuizSchema]) },
      also: noQuiz,
      without: [403],
    }),
    patch: route(tag, {
      summary: 'Изменить квиз',
      description: authoring,
      access: STAFF_ROLES,
      params: quizId,
      body: quizUpdateSchema,
      example: { title: 'Итоговый тест (новая редакция)' },
      versioned: true,
      ok: { status: 200, description: 'Квиз после изменения', schema: quizSchema },
      also: noQuiz,
    }),
    delete: route(tag, {
      summary: 'Удалить квиз',
      description: authoring,
      access: STAFF_ROLES,
      params: quizId,
      ok: noContent('Удалён'),
      also: noQuiz,
    }),
  },

  '/api/courses/{courseId}/bank': {
    get: route(tag, {
      summary: 'Банк вопросов курса',
      description: 'Страница вопросов (новые первыми), по метке `tag`; и все метки банка с числом вопросов.',
      access: STAFF_ROLES,
      params: bankCourseId,
      query: bankListQuerySchema,
      ok: { status: 200, description: 'Страница банка', schema: bankPageSchema },
      also: noCourse,
    }),
    post: route(tag, {
      summary: 'Добавить вопрос в банк',
      description: `${authoring} Идентификатор вопроса банк даёт сам (\`bank-<id>\`); присланный не хранится.`,
      access: STAFF_ROLES,
      params: bankCourseId,
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
    }),
  },
  '/api/courses/{courseId}/bank/{questionId}': {
    get: route(tag, {
      summary: 'Вопрос банка',
      access: STAFF_ROLES,
      params: bankQuestionId,
      ok: { status: 200, description: 'Вопрос', schema: bankQuestionSchema, headers: etagHeader },
      also: noBankQuestion,
    }),
    put: route(tag, {
      summary: 'Изменить вопрос банка',
      description: `${authoring} Попытки, уже вытянувшие вопрос, хранят его прежним.`,
      access: STAFF_ROLES,
      params: bankQuestionId,
      body: bankQuestionInputSchema,
      example: {
        tags: ['охрана труда'],
        question: { id: 'q1', type: 'true_false', question: 'Инструктаж обязателен', correctAnswer: 'true' },
      },
      versioned: true,
      ok: { status: 200, description: 'Вопрос после изменения', schema: bankQuestionSchema, headers: etagHeader },
      also: noBankQuestion,
    }),
    delete: route(tag, {
      summary: 'Удалить вопрос из банка',
      description: authoring,
      access: STAFF_ROLES,
      params: bankQuestionId,
      ok: noContent('Удалён'),
      also: noBankQuestion,
    }),
  },

  '/api/upload/file': { post: upload('file') },
  '/api/upload/files': { post: upload('files') },
  '/api/upload/answer': {
    post: route(tag, {
      summary: 'Загрузить файл с ответом на вопрос квиза',
      description:
        'multipart/form-data, поле `file`: ответ учащегося на вопрос «Загрузка файла». Проверяется и хранится как любая загрузка; в ответе квиза передаётся его `url`.',
      access: STUDY_ROLES,
      body: z.object({ file: binary }),
      bodyMediaType: 'multipart/form-data',
      ok: { status: 201, description: 'Файл сохранён', schema: uploadedFileSchema },
      also: {
        413: { description: 'Файл больше допустимого', example: CONTENT_MSG.uploadTooLarge },
        415: { description: 'Недопустимый тип файла', example: CONTENT_MSG.uploadBadType },
        429: { description: 'Слишком много загрузок', example: formatMessage(CONTENT_MSG.uploadRateLimited, { seconds: 60 }) },
      },
    }),
  },
  '/api/files/{name}': {
    get: route(tag, {
      summary: 'Скачать загруженный файл',
      description:
        'Без токена: его не могут послать `<img>` и `<video>`; случайное имя и есть право доступа. Поддерживает `Range` (ответ 206).',
      access: 'public',
      params: z.object({ name: z.string().meta({ description: 'Имя файла из ответа загрузки' }) }),
      ok: { status: 200, description: 'Содержимое файла', mediaType: '*/*', schema: binary },
      alsoOk: {
        206: { description: 'Часть файла по заголовку Range', mediaType: '*/*', schema: binary },
      },
      also: {
        404: { description: 'Файла нет', example: CONTENT_MSG.fileNotFound },
        416: 'Запрошенная часть файла недоступна',
      },
      without: [400],
    }),
  },

  '/api/generations/config': {
    get: route(tag, {
      summary: 'Чем работает конструктор (шаблон или ИИ)',
      access: STAFF_ROLES,
      ok: { status: 200, description: 'Источник и пояснение', schema: generationConfigSchema },
    }),
  },
  '/api/courses/generate': {
    post: route(tag, {
      summary: 'Сгенерировать курс',
      description: 'Запускает задание и сразу отвечает 202; ход задания — `GET /api/generations/{id}`.',
      access: STAFF_ROLES,
      body: generateCourseSchema,
      example: { topic: 'Охрана труда', audience: 'Новые сотрудники склада', goals: ['Знать правила безопасности'] },
      ok: { status: 202, description: 'Задание запущено', schema: generationJobSchema },
      also: { 429: tooManyJobs },
    }),
  },
  '/api/generations/regenerate': {
    post: route(tag, {
      summary: 'Перегенерировать модуль, урок или квиз (предложение)',
      description: 'Ничего не меняет до `POST /api/generations/{id}/accept`.',
      access: STAFF_ROLES,
      body: regenerateSchema,
      example: { target: 'lesson', id: EXAMPLE_ID, instructions: 'больше практики' },
      ok: { status: 202, description: 'Задание запущено', schema: generationJobSchema },
      also: { ...noBlock, 429: tooManyJobs },
    }),
  },
  '/api/generations/{id}': {
    get: route(tag, {
      summary: 'Ход генерации',
      description: 'Чужое задание куратору не видно (404); ADMIN видит любое.',
      access: STAFF_ROLES,
      params: jobId,
      ok: { status: 200, description: 'Задание', schema: generationJobSchema },
      also: noJob,
    }),
    delete: route(tag, {
      summary: 'Остановить генерацию или отклонить предложение',
      access: STAFF_ROLES,
      params: jobId,
      ok: { status: 200, description: 'Задание после отмены', schema: generationJobSchema },
      also: { ...noJob, 409: { description: 'Задание уже завершено', example: GENERATION_MSG.alreadyFinished } },
    }),
  },
  '/api/generations/{id}/accept': {
    post: route(tag, {
      summary: 'Принять предложение перегенерации',
      access: STAFF_ROLES,
      params: jobId,
      ok: { status: 200, description: 'Курс после замены', schema: courseSchema },
      also: { ...noJob, 409: { description: 'Принимать нечего', example: GENERATION_MSG.notAProposal } },
    }),
  },
};
