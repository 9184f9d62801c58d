import { z } from 'zod';
import { exportTooManyRows, type AuditCode, type Role } from '@portal/contracts';

/**
 * One declaration per route: what it accepts, what it answers, who may call it, what it limits and
 * what it records. The service mounts its Koa route from it (`declaredRouter`), the gateway builds
 * the route's OpenAPI operation from it, and the security matrix reads its rows from it, so the three
 * cannot disagree. This module holds data and pure helpers only: the gateway and the tests import a
 * service's declarations without its store, queues or router.
 */

/**
 * A check the router may run before a policy's roles: `consent`, the consent to the processing of
 * personal data in force (the kit's `requireConsent`, a 403 naming it), which learning needs whatever
 * the role, so a person without it hears about the consent rather than about their role.
 */
export type PolicyCheck = 'consent';

/** A role check with a name: the roles that reach the route at all (a record's own rule follows its load). */
export interface Policy {
  name: string;
  roles: readonly Role[];
  /** Checks run before the roles, in this order. */
  first?: readonly PolicyCheck[];
}

export const definePolicy = (name: string, roles: readonly Role[], options: { first?: readonly PolicyCheck[] } = {}): Policy => ({
  name,
  roles,
  ...options,
});

/** Who may call a route: anyone, a signed-in person of one of these roles, or a named policy. */
export type RouteAccess = 'public' | readonly Role[] | Policy;

const isPolicy = (access: RouteAccess): access is Policy => typeof access === 'object' && 'name' in access;

/** The roles a route lets through, whatever the form of its access. */
export const rolesOf = (access: RouteAccess): 'public' | readonly Role[] => (isPolicy(access) ? access.roles : access);

/** The checks a route's access runs before its roles (none but for a policy that names some). */
export const checksBeforeRoles = (access: RouteAccess): readonly PolicyCheck[] => (isPolicy(access) ? (access.first ?? []) : []);

/** A successful answer: a JSON schema or another media type (a file, a CSV), and the headers it carries. */
export interface Answer {
  description: string;
  schema?: z.ZodType;
  mediaType?: string;
  /** Further media types the same answer may come as (an export's XLSX beside its CSV). */
  alsoAs?: Record<string, z.ZodType>;
  headers?: z.ZodObject;
}

/** What a refusal means, with a Russian example of its message. */
export interface Refusal {
  description: string;
  example: string;
}

/** A limit on how often a route may be called; the service gives the limiter, named the same, at mount. */
export interface RateLimit {
  name: string;
  refusal: Refusal;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDeclaration<
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  A extends AuditCode = AuditCode,
> {
  method: Method;
  /** As Koa writes it, the whole path: `/api/audit/my`, `/api/courses/:id`. */
  path: string;
  /** The operation's name in the document and in generated clients: `listAuditEvents`. */
  operationId: string;
  /** In Russian, as the document shows it. */
  summary: string;
  description?: string;
  access: RouteAccess;
  /** Path parameters, named as in the path (`:id`). */
  params?: P;
  query?: Q;
  /** The body: JSON unless `bodyMediaType` says otherwise; the router parses it with this schema. */
  body?: B;
  bodyMediaType?: string;
  /**
   * A body the handler reads itself as a stream (a multipart upload, whose parts are counted and
   * checked as they arrive): its media type and the schema the document shows, never parsed by the
   * router, so the handler's input has no `body`. A route declares `body` or `streamedBody`, not both.
   */
  streamedBody?: { mediaType: string; schema: z.ZodType };
  /** A filled-in body, as an integrator would send it. */
  example?: unknown;
  /** The answer when all goes well. */
  ok: { status: number } & Answer;
  /** Other successful answers (an archived course, a part of a file, not modified). */
  alsoOk?: Record<number, Answer>;
  /** Refusals beyond those every route of its kind has (400 for input, 401 and 403 for access). */
  also?: Partial<Record<number, string | Refusal>>;
  /** Refusals this route never gives although its kind usually does. */
  without?: number[];
  /** A write of a versioned record: `If-Match` (or a `version` field in the body) guards it, 412 when stale. */
  versioned?: true;
  /** A create that honours `Idempotency-Key`: a retry is answered, not made again. */
  idempotent?: true;
  rateLimit?: RateLimit;
  /** The codes of the audit events the route may record (the table in contracts), if it records any. */
  audit?: readonly A[];
}

/** Keeps a declaration's schemas' types, so its handler gets typed input. */
export const defineRoute = <
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  A extends AuditCode = never,
>(
  declaration: RouteDeclaration<P, Q, B, A>,
): RouteDeclaration<P, Q, B, A> => declaration;

/** The bytes of a file, as a schema. */
export const binarySchema = z.string().meta({ format: 'binary' });

/** The media type of an Excel workbook (.xlsx). */
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A download of a list: every row its filters select (up to EXPORT_MAX_ROWS), as CSV or XLSX, as
 * `format` asks; named `<file>.csv` or `<file>.xlsx`. Its 400 also covers a file with too many rows.
 */
export const defineExportRoute = <Q extends z.ZodObject, P extends z.ZodObject | undefined = undefined>(
  declaration: Omit<RouteDeclaration<P, Q, undefined>, 'ok'> & { file: string },
): RouteDeclaration<P, Q, undefined> => {
  const { file, ...rest } = declaration;
  return defineRoute({
    ...rest,
    ok: {
      status: 200,
      description: `Файл ${file}.csv или ${file}.xlsx`,
      mediaType: 'text/csv',
      schema: z.string(),
      alsoAs: { [XLSX_MEDIA_TYPE]: binarySchema },
    },
    also: {
      400: { description: 'Неверный фильтр, или строк больше, чем помещается в файл', example: exportTooManyRows() },
      ...rest.also,
    },
  });
};

/** True only when the schema's output and the interface are the same type, both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * An answer schema that must describe a contracts interface exactly: the build fails when the schema
 * and its interface part ways.
 */
export const conforms = <T>() => ({
  as: <S extends z.ZodType>(schema: S, ..._same: Same<z.output<S>, T> extends true ? [] : [never]) => schema,
});

/** The fields of a page of a list: its items, the total that matches, and which page of what size it is. */
export const pageFields = <T extends z.ZodType>(item: T) => ({
  data: z.array(item),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});

/** A page's fields with `totalExact`, for a list whose count stops at a cap. */
export const countedPageFields = <T extends z.ZodType>(item: T) => ({
  ...pageFields(item),
  totalExact: z
    .boolean()
    .optional()
    .meta({ description: 'false, когда подсчёт остановлен на 10 000 (совпадений больше); нет поля, когда total точный' }),
});

/** A page of a list whose count stops at a cap, named `name` in the API document. */
export const pageOf = <T extends z.ZodType>(item: T, name: string) => z.object(countedPageFields(item)).meta({ id: name });

/** The id the API document shows in its examples (an ObjectId's 24 hex digits). */
export const EXAMPLE_ID = '6743a1f0c2b5e80012ab34cd';

/** The entity tag of a record's version: sent back as If-Match with a write, or If-None-Match with a read. */
export const etagHeader = z.object({
  ETag: z.string().meta({ description: 'Версия записи для If-Match / If-None-Match', example: '"3"' }),
});

/** A moment in the API document: an ISO 8601 date and time. */
export const isoDateTime = z.string().meta({ format: 'date-time', example: '2026-11-24T09:30:00.000Z' });
