import { z } from 'zod';
import {
  CONSENT_MSG,
  CONTENT_MSG,
  MSG,
  QUIZ_MSG,
  answerUploadQuerySchema,
  formatMessage,
  uploadQuerySchema,
} from '@portal/contracts';
import { binarySchema, defineRoute, type Refusal } from '@portal/service-kit';
import { answerUploaders, lessonUploaders } from '../../policies/content';
import { uploadedFileSchema } from './schema';

/**
 * A stored file. Public to the kit (no guards): a file a learner of a published course is shown
 * needs no token, since `<img>` and `<video>` cannot send one; every other file (a learner's answer,
 * a draft course's file, one not yet used) is read only with the token of its uploader, its course's
 * authors or an ADMIN, which the handler checks after the file's load (uploads/access).
 */
export const downloadFile = defineRoute({
  method: 'GET',
  path: '/api/files/:name',
  operationId: 'downloadFile',
  summary: 'Скачать загруженный файл',
  description:
    'Файл, который показывают учащимся опубликованного курса, отдаётся без токена (его не могут послать `<img>` и `<video>`) с `Cache-Control: public, max-age=300`. Остальные (ответы учащихся, файлы неопубликованных курсов, ещё не использованные) — только с токеном того, кто их загрузил, авторов курса или администратора, с `Cache-Control: private, no-store`. Поддерживает `Range` (ответ 206).',
  access: 'public',
  params: z.object({ name: z.string().meta({ description: 'Имя файла из ответа загрузки' }) }),
  ok: { status: 200, description: 'Содержимое файла', mediaType: '*/*', schema: binarySchema },
  alsoOk: {
    206: { description: 'Часть файла по заголовку Range', mediaType: '*/*', schema: binarySchema },
  },
  also: {
    401: { description: 'Файл не публичный, а токена нет', example: MSG.unauthorized },
    403: { description: 'Файл не публичный и не ваш', example: CONTENT_MSG.fileForbidden },
    404: { description: 'Файла нет', example: CONTENT_MSG.fileNotFound },
    416: 'Запрошенная часть файла недоступна',
  },
  without: [400],
});

const multipart = (schema: z.ZodType) => ({ mediaType: 'multipart/form-data', schema });

const uploadRefusals = {
  413: { description: 'Файл больше допустимого или их слишком много', example: CONTENT_MSG.uploadTooLarge },
  415: { description: 'Недопустимый тип файла', example: CONTENT_MSG.uploadBadType },
  429: { description: 'Слишком много загрузок', example: formatMessage(CONTENT_MSG.uploadRateLimited, { seconds: 60 }) },
} satisfies Record<number, Refusal>;

/** The multipart body is read by the handler as it streams in (its parts are counted and sniffed on arrival). */
export const uploadFile = defineRoute({
  method: 'POST',
  path: '/api/upload/file',
  operationId: 'uploadFile',
  summary: 'Загрузить файл',
  description: 'multipart/form-data, поле `file`. Тип файла определяется по содержимому.',
  access: lessonUploaders,
  query: uploadQuerySchema,
  streamedBody: multipart(z.object({ file: binarySchema })),
  ok: { status: 201, description: 'Файл сохранён', schema: uploadedFileSchema },
  also: uploadRefusals,
  audit: ['file.uploaded'],
});

export const uploadFiles = defineRoute({
  method: 'POST',
  path: '/api/upload/files',
  operationId: 'uploadFiles',
  summary: 'Загрузить несколько файлов',
  description: 'multipart/form-data, поле `files` (несколько частей). Тип файла определяется по содержимому.',
  access: lessonUploaders,
  query: uploadQuerySchema,
  streamedBody: multipart(z.object({ files: z.array(binarySchema) })),
  ok: { status: 201, description: 'Файлы сохранены', schema: z.array(uploadedFileSchema) },
  also: uploadRefusals,
  audit: ['file.uploaded'],
});

export const uploadAnswerFile = defineRoute({
  method: 'POST',
  path: '/api/upload/answer',
  operationId: 'uploadAnswerFile',
  summary: 'Загрузить файл с ответом на вопрос квиза',
  description:
    'multipart/form-data, поле `file`: ответ учащегося на вопрос «Загрузка файла» квиза `quizId` (квиз урока, который учащийся видит). Проверяется и хранится как любая загрузка; в ответе квиза передаётся его `url`. Файл читают только сам учащийся, авторы курса и администратор.',
  access: answerUploaders,
  query: answerUploadQuerySchema,
  streamedBody: multipart(z.object({ file: binarySchema })),
  ok: { status: 201, description: 'Файл сохранён', schema: uploadedFileSchema },
  also: {
    403: {
      description: 'Роли не хватает прав, или нет действующего согласия на обработку персональных данных',
      example: CONSENT_MSG.neededToStudy,
    },
    404: { description: 'Квиза нет или учащийся его не видит', example: QUIZ_MSG.quizNotFound },
    ...uploadRefusals,
    413: { description: 'Файл больше допустимого', example: CONTENT_MSG.uploadTooLarge },
  },
  audit: ['file.uploaded'],
});

export const uploadRoutes = [uploadFile, uploadFiles, uploadAnswerFile, downloadFile] as const;
