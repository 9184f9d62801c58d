import type { Request } from 'express';
import type { Upstreams } from '@portal/service-kit';
import { z } from 'zod';
import { auditRecordSchema } from '@portal/svc-audit/routes/api';
import {
  DASHBOARD_FIGURES,
  MSG,
  ROLES,
  type ActivityScope,
  type AuditActivity,
  type AuthStats,
  type ContentStats,
  type CrmStats,
  type DashboardSource,
  type ProgressStats,
} from '@portal/contracts';

// What each service's internal route answers. An answer of another shape counts as no answer, so
// a half-deployed service can never put garbage on someone's dashboard.
const period = z.object({ last30: z.number().int().min(0), prev30: z.number().int().min(0), exact: z.literal(false).optional() });
const count = z.number().int().min(0);
const lowerBounds = z.array(z.enum(DASHBOARD_FIGURES)).optional();

export const contentStatsSchema: z.ZodType<ContentStats> = z.object({
  totalCourses: count,
  activeCourses: count,
  change: z.object({ totalCourses: period, activeCourses: period }),
  lowerBounds,
});
export const authStatsSchema: z.ZodType<AuthStats> = z.object({ totalStudents: count, newStudents: period, lowerBounds });
export const crmStatsSchema: z.ZodType<CrmStats> = z.object({
  organizations: count,
  contacts: count,
  change: z.object({ organizations: period, contacts: period }),
  lowerBounds,
});
export const progressStatsSchema: z.ZodType<ProgressStats> = z.object({ completedCourses: count, change: period, lowerBounds });
export const activityScopeSchema: z.ZodType<ActivityScope> = z.object({ ids: z.array(z.string()) });
export const activitySchema: z.ZodType<AuditActivity> = z.object({
  recent: z.array(auditRecordSchema),
  byDay: z.array(z.object({ date: z.string(), count })),
});

/** GET /api/auth/verify of the auth service. */
export const verifySchema = z.object({
  valid: z.literal(true),
  user: z.object({ id: z.string(), role: z.enum(ROLES), fullName: z.string(), email: z.string() }),
});
export type VerifiedUser = z.infer<typeof verifySchema>['user'];

export interface SourceResult<T> {
  source: DashboardSource;
  value: T | null;
  /** Why there is no value, for the log. */
  reason?: string;
}

/**
 * Asks one service within a time budget. Whatever goes wrong (refused, slow, an error status, a
 * strange body) gives no value and a reason; it never throws.
 */
export async function askWithin<T>(
  source: DashboardSource,
  service: Upstreams,
  path: string,
  schema: z.ZodType<T>,
  { headers, budgetMs }: { headers: Record<string, string>; budgetMs: number },
  /** A JSON body to POST instead of a GET (a question too long for an address). */
  body?: unknown,
): Promise<SourceResult<T>> {
  try {
    const res = await service.fetch(path, {
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      signal: AbortSignal.timeout(budgetMs),
      ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return { source, value: null, reason: `status ${res.status}` };
    }
    const parsed = schema.safeParse(await res.json());
    return parsed.success ? { source, value: parsed.data } : { source, value: null, reason: 'unexpected answer' };
  } catch (err) {
    const name = (err as Error).name;
    return {
      source,
      value: null,
      reason: name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${budgetMs} ms` : (err as Error).message,
    };
  }
}

/**
 * Who is asking, as the auth service says (the gateway verifies nothing itself): the person, or the
 * status and message to refuse with (401 for a bad token, 403 for a session auth refuses, 503 when
 * auth does not answer in time).
 */
export async function verifyCaller(
  auth: Upstreams,
  req: Request,
  authorization: string,
  budgetMs: number,
): Promise<{ user: VerifiedUser } | { status: number; message: string }> {
  try {
    const res = await auth.fetch('/api/auth/verify', {
      headers: { authorization, accept: 'application/json', 'x-request-id': String(req.headers['x-request-id'] ?? '') },
      signal: AbortSignal.timeout(budgetMs),
    });
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    if (res.status === 401) return { status: 401, message: body?.message ?? MSG.badToken };
    // A session that may not ask (a candidate's link reaches its one quiz) is refused as auth refused it.
    if (res.status === 403) return { status: 403, message: body?.message ?? MSG.forbidden };
    const parsed = verifySchema.safeParse(body);
    if (!res.ok || !parsed.success) return { status: 503, message: MSG.serviceUnavailable };
    return { user: parsed.data.user };
  } catch {
    return { status: 503, message: MSG.serviceUnavailable };
  }
}
