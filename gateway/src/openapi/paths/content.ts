import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  CONTENT_MSG,
  GENERATION_MSG,
  MSG,
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
  answerUploadQuerySchema,
  uploadQuerySchema,
} from '@portal/contracts';
import {
  binary,
  etagHeader,
  fileAnswer,
  idParam,
  missing,
  noConsent,
  noContent,
  route,
  routesOf,
  withOperationIds,
  type Answer,
  type RouteDoc,
} from '../route';
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
const courseId = idParam('id', 'Идентификатор курса');
const noCourse = missing('Курса нет или он скрыт от этого человека', CONTENT_MSG.courseNotFound);
const noBlock = missing('Модуля или урока нет', CONTENT_MSG.blockNotFound);

const bankQuestionId = z.object({
  courseId: z.string().meta({ description: 'Идентификатор курса', example: EXAMPLE_ID }),
  questionId: z.string().meta({ description: 'Идентификатор вопроса банка', example: EXAMPLE_ID }),
});

/** The authors' routes about one record: open to the staff, they take its id and answer 404 without it. */
const authorsRoutes = (params: z.ZodObject, notFound: RouteDoc['also']) =>
  routesOf(tag, { access: STAFF_ROLES, params, also: notFound });
const courseRoute = authorsRoutes(courseId, noCourse);
const blockRoute = authorsRoutes(idParam('id', 'Идентификатор модуля или урока'), noBlock);
const quizRoute = authorsRoutes(idParam('id', 'Идентификатор квиза'), missing('Квиза нет', QUIZ_MSG.quizNotFound));
const bankRoute = authorsRoutes(idParam('courseId', 'Идентификатор курса'), noCourse);
const bankQuestionRoute = authorsRoutes(bankQuestionId, missing('Такого вопроса в банке курса нет', BANK_MSG.notFound));
const jobRoute = authorsRoutes(
  idParam('id', 'Идентификатор генерации'),
  missing('Генерации нет или она чужая', GENERATION_MSG.jobNotFound),
);
const tooManyJobs = {
  description: 'Слишком много генераций или исчерпан дневной лимит ИИ',
  example: formatMessage(GENERATION_MSG.rateLimited, { minutes: 10 }),
};
const authoring = 'ADMIN меняет любой курс; CURATOR — только свой или тот, где он соавтор (чужой курс отвечает 403 или 404).';

/** A read of one course by anyone signed in (a hidden one is 404): it carries an ETag, and an unchanged course answers 304. */
const courseRead = (doc: Pick<RouteDoc, 'summary' | 'description'> & { ok: Answer }) =>
  courseRoute({
    ...doc,
    access: ROLES,
    ok: { status: 200, ...doc.ok, headers: etagHeader },
    alsoOk: { 304: { description: 'Курс не изменился' } },
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
  courseRoute({
    summary,
    access: ROLES,
    ok: { status: 200, description: 'Курс с отметкой', schema: courseSummarySchema },
    without: [403],
  });

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

const contentOperations: ZodOpenApiPathsObject = {
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
    patch: courseRoute({
      summary: 'Изменить курс',
      description: authoring,
      body: courseUpdateSchema,
      example: { title: 'Охрана труда 2027', status: 'published', version: 3 },
      versioned: true,
      ok: { status: 200, description: 'Курс после изменения', schema: courseSummarySchema },
    }),
    delete: courseRoute({
      summary: 'Удалить курс',
      description: `${authoring} Курс, в котором у учащихся есть попытки или прогресс, куратор не удаляет, а скрывает в архив (ответ 200).`,
      ok: noContent('Курс удалён'),
      alsoOk: { 200: { description: 'Курс скрыт в архив', schema: archivedCourseSchema } },
    }),
  },
  '/api/courses/{id}/outline': {
    get: courseRead({
      summary: 'Структура курса без содержимого уроков',
      ok: { description: 'Структура курса', schema: courseOutlineSchema },
    }),
  },
  '/api/courses/{id}/copy': {
    post: courseRoute({
      summary: 'Копия курса',
      ok: { status: 201, description: 'Копия создана, её владелец — копирующий', schema: courseSchema },
    }),
  },
  '/api/courses/{id}/authors': {
    get: courseRoute({
      summary: 'Владелец и соавторы курса',
      ok: { status: 200, description: 'Авторы', schema: courseAuthorsSchema },
    }),
    post: courseRoute({
      summary: 'Добавить соавтора (по email или id)',
      description: 'Соавторов добавляет владелец курса или ADMIN.',
      body: coAuthorAddSchema,
      example: { email: 'maria.curator@example.ru' },
      ok: { status: 200, description: 'Авторы после изменения', schema: courseAuthorsSchema },
    }),
  },
  '/api/courses/{id}/authors/{userId}': {
    delete: courseRoute({
      summary: 'Убрать соавтора',
      params: courseId.extend(idParam('userId', 'Идентификатор соавтора').shape),
      ok: { status: 200, description: 'Авторы после изменения', schema: courseAuthorsSchema },
    }),
  },
  '/api/courses/{id}/favorite': { post: mark('Добавить в избранное'), delete: mark('Убрать из избранного') },
  '/api/courses/{id}/start': {
    post: courseRoute({
      summary: 'Отметить курс начатым',
      description: 'Начать курс — обучение: нужно действующее согласие на обработку персональных данных.',
      access: ROLES,
      ok: { status: 200, description: 'Курс с отметкой', schema: courseSummarySchema },
      also: noConsent,
    }),
  },

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
      description: `Урок, если \`type\` не MODULE. С \`id\`, выбранным клиентом, повторный запрос (после 503 или потерянного ответа) отвечает записью, созданной первым, а не создаёт вторую. ${authoring}`,
      access: STAFF_ROLES,
      body: blockCreateSchema,
      example: { type: 'LESSON', courseId: EXAMPLE_ID, moduleId: EXAMPLE_ID, title: 'Средства защиты' },
      ok: { status: 201, description: 'Создано (или создано раньше тем же запросом)', schema: blockRecordSchema },
      also: { ...noCourse, 409: { description: 'Идентификатор занят другой записью', example: CONTENT_MSG.blockIdTaken } },
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
    get: blockRoute({
      summary: 'Модуль или урок с содержимым',
      access: ROLES,
      ok: { status: 200, description: 'Запись', schema: blockRecordSchema, headers: etagHeader },
      without: [403],
    }),
    patch: blockRoute({
      summary: 'Изменить модуль или урок',
      description: authoring,
      body: blockUpdateSchema,
      example: {
        title: 'Средства защиты',
        content: [{ type: 'text', content: { text: 'Каска защищает голову.' } }],
        version: 3,
      },
      versioned: true,
      ok: { status: 200, description: 'Запись после изменения (без содержимого урока)', schema: blockSummarySchema },
    }),
    delete: blockRoute({ summary: 'Удалить модуль (с уроками) или урок', description: authoring, ok: noContent('Удалено') }),
  },
  '/api/blocks/{id}/copy': {
    post: blockRoute({
      summary: 'Копия урока в том же модуле',
      ok: { status: 201, description: 'Копия', schema: blockRecordSchema },
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
    get: quizRoute({
      summary: 'Квиз',
      description: 'Автор курса получает квиз целиком; остальные — без правильных ответов и пояснений.',
      access: ROLES,
      ok: { status: 200, description: 'Квиз', schema: z.union([quizSchema, learnerQuizSchema]) },
      without: [403],
    }),
    patch: quizRoute({
      summary: 'Изменить квиз',
      description: authoring,
      body: quizUpdateSchema,
      example: { title: 'Итоговый тест (новая редакция)', version: 3 },
      versioned: true,
      ok: { status: 200, description: 'Квиз после изменения', schema: quizSchema },
    }),
    delete: quizRoute({ summary: 'Удалить квиз', description: authoring, ok: noContent('Удалён') }),
  },

  '/api/courses/{courseId}/bank': {
    get: bankRoute({
      summary: 'Банк вопросов курса',
      description: 'Страница вопросов (новые первыми), по метке `tag`; и все метки банка с числом вопросов.',
      query: bankListQuerySchema,
      ok: { status: 200, description: 'Страница банка', schema: bankPageSchema },
    }),
    post: bankRoute({
      summary: 'Добавить вопрос в банк',
      description: `${authoring} Идентификатор вопроса банк даёт сам (\`bank-<id>\`); присланный не хранится.`,
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
    }),
  },
  '/api/courses/{courseId}/bank/{questionId}': {
    get: bankQuestionRoute({
      summary: 'Вопрос банка',
      ok: { status: 200, description: 'Вопрос', schema: bankQuestionSchema, headers: etagHeader },
    }),
    put: bankQuestionRoute({
      summary: 'Изменить вопрос банка',
      description: `${authoring} Попытки, уже вытянувшие вопрос, хранят его прежним.`,
      body: bankQuestionInputSchema,
      example: {
        tags: ['охрана труда'],
        question: { id: 'q1', type: 'true_false', question: 'Инструктаж обязателен', correctAnswer: 'true' },
        version: 3,
      },
      versioned: true,
      ok: { status: 200, description: 'Вопрос после изменения', schema: bankQuestionSchema, headers: etagHeader },
    }),
    delete: bankQuestionRoute({ summary: 'Удалить вопрос из банка', description: authoring, ok: noContent('Удалён') }),
  },

  '/api/upload/file': { post: upload('file') },
  '/api/upload/files': { post: upload('files') },
  '/api/upload/answer': {
    post: route(tag, {
      summary: 'Загрузить файл с ответом на вопрос квиза',
      description:
        'multipart/form-data, поле `file`: ответ учащегося на вопрос «Загрузка файла» квиза `quizId` (квиз урока, который учащийся видит). Проверяется и хранится как любая загрузка; в ответе квиза передаётся его `url`. Файл читают только сам учащийся, авторы курса и администратор.',
      access: STUDY_ROLES,
      query: answerUploadQuerySchema,
      body: z.object({ file: binary }),
      bodyMediaType: 'multipart/form-data',
      ok: { status: 201, description: 'Файл сохранён', schema: uploadedFileSchema },
      also: {
        ...noConsent,
        404: { description: 'Квиза нет или учащийся его не видит', example: QUIZ_MSG.quizNotFound },
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
        'Файл, который показывают учащимся опубликованного курса, отдаётся без токена (его не могут послать `<img>` и `<video>`) с `Cache-Control: public, max-age=300`. Остальные (ответы учащихся, файлы неопубликованных курсов, ещё не использованные) — только с токеном того, кто их загрузил, авторов курса или администратора, с `Cache-Control: private, no-store`. Поддерживает `Range` (ответ 206).',
      access: 'public',
      params: z.object({ name: z.string().meta({ description: 'Имя файла из ответа загрузки' }) }),
      ok: fileAnswer('Содержимое файла', '*/*'),
      alsoOk: {
        206: { description: 'Часть файла по заголовку Range', mediaType: '*/*', schema: binary },
      },
      also: {
        401: { description: 'Файл не публичный, а токена нет', example: MSG.unauthorized },
        403: { description: 'Файл не публичный и не ваш', example: CONTENT_MSG.fileForbidden },
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
    get: jobRoute({
      summary: 'Ход генерации',
      description: 'Чужое задание куратору не видно (404); ADMIN видит любое.',
      ok: { status: 200, description: 'Задание', schema: generationJobSchema },
    }),
    delete: jobRoute({
      summary: 'Остановить генерацию или отклонить предложение',
      ok: { status: 200, description: 'Задание после отмены', schema: generationJobSchema },
      also: { 409: { description: 'Задание уже завершено', example: GENERATION_MSG.alreadyFinished } },
    }),
  },
  '/api/generations/{id}/accept': {
    post: jobRoute({
      summary: 'Принять предложение перегенерации',
      ok: { status: 200, description: 'Курс после замены', schema: courseSchema },
      also: { 409: { description: 'Принимать нечего', example: GENERATION_MSG.notAProposal } },
    }),
  },
};

/** What a generated client calls each operation. */
export const contentPaths = withOperationIds(contentOperations, {
  'GET /api/courses': 'listCourses',
  'POST /api/courses': 'createCourse',
  'GET /api/courses/favorites/my': 'listFavoriteCourses',
  'GET /api/courses/started/my': 'listStartedCourses',
  'GET /api/courses/{id}': 'getCourse',
  'PATCH /api/courses/{id}': 'updateCourse',
  'DELETE /api/courses/{id}': 'deleteCourse',
  'GET /api/courses/{id}/outline': 'getCourseOutline',
  'POST /api/courses/{id}/copy': 'copyCourse',
  'GET /api/courses/{id}/authors': 'listCourseAuthors',
  'POST /api/courses/{id}/authors': 'addCourseCoAuthor',
  'DELETE /api/courses/{id}/authors/{userId}': 'removeCourseCoAuthor',
  'POST /api/courses/{id}/favorite': 'addFavoriteCourse',
  'DELETE /api/courses/{id}/favorite': 'removeFavoriteCourse',
  'POST /api/courses/{id}/start': 'markCourseStarted',
  'GET /api/blocks/course/{courseId}': 'listCourseBlocks',
  'POST /api/blocks': 'createBlock',
  'POST /api/blocks/reorder': 'reorderBlocks',
  'POST /api/blocks/import': 'importLessons',
  'GET /api/blocks/{id}': 'getBlock',
  'PATCH /api/blocks/{id}': 'updateBlock',
  'DELETE /api/blocks/{id}': 'deleteBlock',
  'POST /api/blocks/{id}/copy': 'copyLesson',
  'GET /api/quizzes': 'listQuizzes',
  'POST /api/quizzes': 'createQuiz',
  'GET /api/quizzes/{id}': 'getQuiz',
  'PATCH /api/quizzes/{id}': 'updateQuiz',
  'DELETE /api/quizzes/{id}': 'deleteQuiz',
  'GET /api/courses/{courseId}/bank': 'listBankQuestions',
  'POST /api/courses/{courseId}/bank': 'createBankQuestion',
  'GET /api/courses/{courseId}/bank/{questionId}': 'getBankQuestion',
  'PUT /api/courses/{courseId}/bank/{questionId}': 'updateBankQuestion',
  'DELETE /api/courses/{courseId}/bank/{questionId}': 'deleteBankQuestion',
  'POST /api/upload/file': 'uploadFile',
  'POST /api/upload/files': 'uploadFiles',
  'POST /api/upload/answer': 'uploadAnswerFile',
  'GET /api/files/{name}': 'downloadFile',
  'GET /api/generations/config': 'getGenerationConfig',
  'POST /api/courses/generate': 'generateCourse',
  'POST /api/generations/regenerate': 'regenerateCoursePart',
  'GET /api/generations/{id}': 'getGeneration',
  'DELETE /api/generations/{id}': 'cancelGeneration',
  'POST /api/generations/{id}/accept': 'acceptGeneration',
});
