import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  CONTENT_MSG,
  QUIZ_MSG,
  formatMessage,
  STAFF_ROLES,
  STUDY_ROLES,
  answerUploadQuerySchema,
  uploadQuerySchema,
} from '@portal/contracts';
import { binary, noConsent, route, withOperationIds } from '../route';
import { TAGS } from '../tags';
import { uploadedFileSchema } from '../schemas';

const tag = TAGS.content.name;

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
};

/** What a generated client calls each operation. */
export const contentPaths = withOperationIds(contentOperations, {
  'POST /api/upload/file': 'uploadFile',
  'POST /api/upload/files': 'uploadFiles',
  'POST /api/upload/answer': 'uploadAnswerFile',
});
