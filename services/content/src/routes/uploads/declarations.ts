import { z } from 'zod';
import { CONTENT_MSG, MSG } from '@portal/contracts';
import { binarySchema, defineRoute } from '@portal/service-kit';

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

/**
 * The uploads' declared routes. POST /api/upload/file, /files and /answer stay hand-written (the
 * gateway documents them): their multipart body is streamed by the handler, and the kit would parse a
 * declared body that names its `file` part as required, refusing every upload; the answer's consent
 * check also comes before its role check, which the kit's guards cannot order.
 */
export const uploadRoutes = [downloadFile] as const;
