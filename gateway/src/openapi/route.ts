import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { CONTENT_MSG, MSG, ROLE_LABELS, exportTooManyRows, formatMessage, type Role } from '@portal/contracts';
import { EXAMPLE_ID, errorSchema, pageOf } from './schemas';
import { etagHeader } from '@portal/service-kit';

/** Who may call a route: anyone, or a signed-in person of one of these roles. */
export type Access = 'public' | readonly Role[];

export interface RouteDoc {
  summary: string;
  description?: string;
  access: Access;
  /** Path parameters, named as in the path (`{id}`). */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** The body: JSON unless `bodyMediaType` says otherwise (a multipart upload). */
  body?: z.ZodType;
  bodyMediaType?: string;
  /** A filled-in body, as an integrator would send it. */
  example?: unknown;
  /** The answer when all goes well: a JSON schema, or another media type (a file, a CSV). */
  ok: { status: number } & Answer;
  /** Other successful answers (an archived course, a part of a file, not modified). */
  alsoOk?: Record<number, Answer>;
  /** Other answers beyond the refusals every route of its kind has (400 for input, 401 and 403 for access). */
  also?: Partial<Record<number, string | Refusal>>;
  /**
   * A write of a versioned record: `If-Match` (or a `version` field in the body) guards it, 412 when
   * stale, 428 when the request names no version; the example must then carry `version`.
   */
  versioned?: true;
  /** A create that honours `Idempotency-Key` (service kit's `idempotent`): a retry is answered, not made again. */
  idempotent?: true;
  /** Answers this route never gives although its kind usually does. */
  without?: number[];
}

/** A successful answer: a JSON schema or another media type (a file, a CSV), and the headers it carries. */
export interface Answer {
  description: string;
  schema?: z.ZodType;
  mediaType?: string;
  headers?: z.ZodObject;
}

/** What a refusal means, with a Russian example of its message. */
export interface Refusal {
  description: string;
  example: string;
}

const REFUSALS: Record<number, Refusal> = {
  400: { description: 'Неверные данные запроса', example: MSG.validation },
  401: { description: 'Нет токена, или сессия завершена', example: MSG.unauthorized },
  403: { description: 'Роли не хватает прав', example: MSG.forbidden },
  404: { description: 'Записи нет (или она скрыта от этого человека)', example: MSG.notFound },
  409: { description: 'Конфликт с текущим состоянием', example: MSG.emailTaken },
  412: { description: 'Запись изменил кто-то другой: версия в If-Match устарела', example: MSG.staleDocument },
  413: { description: 'Слишком большой запрос', example: MSG.bodyTooLarge },
  415: { description: 'Неподдерживаемый тип файла', example: CONTENT_MSG.uploadBadType },
  416: { description: 'Запрошенная часть файла недоступна', example: MSG.rangeNotSatisfiable },
  428: { description: 'Версия записи не передана: ни поля version, ни заголовка If-Match', example: MSG.versionRequired },
  429: { description: 'Слишком много попыток', example: formatMessage(MSG.tooManyAttempts, { seconds: 60 }) },
  503: { description: 'Сервис или хранилище временно недоступны', example: MSG.serviceUnavailable },
};

const refusal = (status: number, given?: string | Refusal) => {
  const known = REFUSALS[status] ?? { description: 'Ошибка', example: MSG.internal };
  const { description, example } = typeof given === 'string' ? { ...known, description: given } : (given ?? known);
  return {
    description,
    content: { 'application/json': { schema: errorSchema, example: { message: example, statusCode: status } } },
  };
};

/** A status as the responses object keys it. */
const code = (status: number) => String(status) as `${1 | 2 | 3 | 4 | 5}${string}`;

const success = ({ description, schema, mediaType, headers }: Answer) => ({
  description,
  ...(schema || mediaType ? { content: { [mediaType ?? 'application/json']: { schema: schema ?? z.string() } } } : {}),
  ...(headers ? { headers } : {}),
});

/** The roles as the document names them: `x-roles` for tools, and a sentence for people. */
export const rolesText = (access: Access): string =>
  access === 'public' ? 'Доступ: без входа.' : `Доступ: ${access.map((r) => `${r} (${ROLE_LABELS[r]})`).join(', ')}.`;

/** The body of a versioned write: its own fields and the `version` it is based on (unless If-Match names it). */
const withVersion = (body: z.ZodType): z.ZodType =>
  body instanceof z.ZodObject
    ? body.extend({
        version: z.number().int().min(0).optional().meta({
          description: 'Версия записи, на которой основано изменение (или заголовок If-Match); без неё ответ 428',
          example: 3,
        }),
      })
    : body;

/** One operation of the document, with its refusals written out the same way everywhere. */
export function route(tag: string, doc: RouteDoc): ZodOpenApiOperationObject {
  if (doc.versioned && doc.example !== undefined && !(doc.example && typeof doc.example === 'object' && 'version' in doc.example))
    throw new Error(`«${doc.summary}»: the example of a versioned write must carry its version`);
  const statuses = new Map<number, string | Refusal | undefined>();
  if (doc.params || doc.query || doc.body) statuses.set(400, undefined);
  if (doc.access !== 'public') {
    statuses.set(401, undefined);
    statuses.set(403, undefined);
  }
  if (doc.versioned) {
    statuses.set(412, undefined);
    statuses.set(428, undefined);
  }
  if (doc.idempotent) {
    statuses.set(409, { description: 'Запрос с этим Idempotency-Key ещё выполняется', example: MSG.idempotencyInProgress });
    statuses.set(422, { description: 'Idempotency-Key уже использован для другого запроса', example: MSG.idempotencyKeyReused });
  }
  for (const [status, description] of Object.entries(doc.also ?? {})) statuses.set(Number(status), description);
  for (const status of doc.without ?? []) statuses.delete(status);

  const responses: ZodOpenApiResponsesObject = { [code(doc.ok.status)]: success(doc.ok) };
  for (const [status, answer] of Object.entries(doc.alsoOk ?? {})) responses[code(Number(status))] = success(answer);
  for (const [status, description] of [...statuses].sort(([a], [b]) => a - b))
    responses[code(status)] = refusal(status, description);

  return {
    tags: [tag],
    summary: doc.summary,
    description: [doc.description, doc.versioned && VERSIONED, doc.idempotent && IDEMPOTENT, rolesText(doc.access)]
      .filter(Boolean)
      .join('\n\n'),
    ...(doc.access === 'public' ? {} : { 'x-roles': [...doc.access] }),
    security: doc.access === 'public' ? [] : [{ bearer: [] }],
    ...(doc.params || doc.query || doc.versioned || doc.idempotent
      ? {
          requestParams: {
            ...(doc.params ? { path: doc.params } : {}),
            ...(doc.query ? { query: doc.query } : {}),
            ...(doc.versioned || doc.idempotent
              ? { header: z.object({ ...(doc.versioned ? ifMatch.shape : {}), ...(doc.idempotent ? idempotencyKey.shape : {}) }) }
              : {}),
          },
        }
      : {}),
    ...(doc.body
      ? {
          requestBody: {
            required: true,
            content: {
              [doc.bodyMediaType ?? 'application/json']: {
                schema: doc.versioned ? withVersion(doc.body) : doc.body,
                ...(doc.example === undefined ? {} : { example: doc.example }),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/**
 * Routes that share part of their description — who may call them, the record they are about and its
 * 404 — written once: each route adds the rest, and its `also` adds to the shared one.
 */
export const routesOf =
  <Shared extends Partial<RouteDoc>>(tag: string, shared: Shared) =>
  (doc: Omit<RouteDoc, keyof Shared> & Partial<RouteDoc>): ZodOpenApiOperationObject =>
    // The parameter's type makes shared and doc together a whole RouteDoc; TS cannot follow that through a spread.
    route(tag, { ...shared, ...doc, also: { ...shared.also, ...doc.also } } as RouteDoc);

/** The answer of a list that pages: a page of `item`s (`data`, `total`, `page`, `limit`), named `name` in the schemas. */
export const pageAnswer = (description: string, item: z.ZodType, name: string) => ({
  status: 200,
  description,
  schema: pageOf(item, name),
});

/** The bytes of a file, as a schema. */
export const binary = z.string().meta({ format: 'binary' });

/** The media type of an Excel workbook (.xlsx). */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The answer of a download: a file of this media type. */
export const fileAnswer = (description: string, mediaType: string) => ({ status: 200, description, mediaType, schema: binary });

/** The answer of a delete or a sign-out: 204, no body. */
export const noContent = (description: string) => ({ status: 204, description });

/** A 404 (for `also`): what is missing, with the message the service sends. */
export const missing = (description: string, example: string) => ({ 404: { description, example } });

/** Path parameters: an id of a record. */
export const idParam = (name = 'id', description = 'Идентификатор записи') =>
  z.object({ [name]: z.string().meta({ description, example: EXAMPLE_ID }) });

const VERSIONED =
  'Запись с версией: передайте её `version` в заголовке `If-Match` (или полем `version` в теле); ' +
  'если запись успел изменить кто-то другой, ответ 412 и ничего не меняется. Без версии (и с `If-Match: *`) ' +
  'ответ 428 и ничего не меняется: иначе можно затереть чужие правки.';

const IDEMPOTENT =
  'Повтор без дублей: с заголовком `Idempotency-Key` повтор того же запроса тем же человеком в течение суток ' +
  'получает первый ответ (с заголовком `Idempotent-Replayed: true`) и ничего не создаёт.';

const idempotencyKey = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .meta({ description: 'Ключ повтора: 1–255 печатных символов ASCII, свой для каждого нового запроса', example: 'a1b2c3' }),
});

const ifMatch = z.object({
  'if-match': z
    .string()
    .optional()
    .meta({ description: 'Версия записи, на которой основано изменение (или поле `version` в теле)', example: '"3"' }),
});

/**
 * A download of a list: every row its filters select (up to EXPORT_MAX_ROWS), as CSV (`;`, BOM,
 * every field quoted) or XLSX, as `format` asks; named `<file>.csv` or `<file>.xlsx`.
 */
export function exportRoute(tag: string, doc: Omit<RouteDoc, 'ok'> & { file: string }): ZodOpenApiOperationObject {
  const operation = route(tag, {
    ...doc,
    ok: { status: 200, description: `Файл ${doc.file}.csv или ${doc.file}.xlsx`, mediaType: 'text/csv', schema: z.string() },
    also: {
      400: {
        description: 'Неверный фильтр, или строк больше, чем помещается в файл',
        example: exportTooManyRows(),
      },
      ...doc.also,
    },
  });
  const ok = operation.responses?.['200'] as { content: Record<string, unknown> };
  ok.content[XLSX_TYPE] = { schema: binary };
  return operation;
}

/**
 * Names every operation of a module of hand-kept paths (`'GET /api/courses': 'listCourses'`), as a
 * declaration names its own: a client generated from the document calls it by that name. An
 * operation left unnamed, or a name left over, stops the document from being built.
 */
export function withOperationIds(paths: ZodOpenApiPathsObject, ids: Record<string, string>): ZodOpenApiPathsObject {
  const unused = new Set(Object.keys(ids));
  const named = Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Record<string, ZodOpenApiOperationObject>).map(([method, operation]) => {
          const key = `${method.toUpperCase()} ${path}`;
          const operationId = ids[key];
          if (!operationId) throw new Error(`${key}: no operationId`);
          unused.delete(key);
          return [method, { operationId, ...operation }];
        }),
      ),
    ]),
  );
  if (unused.size) throw new Error(`operationIds of no operation: ${[...unused].join(', ')}`);
  return named;
}

export { etagHeader };
