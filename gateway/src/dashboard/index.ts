import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import {
  MSG,
  RECENT_ACTIVITY_LIMIT,
  ACTIVITY_DAYS,
  activityScopeFor,
  dashboardStatsQuerySchema,
  type DashboardSource,
} from '@portal/contracts';
import { Upstreams } from '@portal/service-kit';
import type { GatewayConfig } from '../config';
import { composeStats, sourcesFor, type SourceAnswers } from './compose';
import {
  activitySchema,
  activityScopeSchema,
  askWithin,
  authStatsSchema,
  contentStatsSchema,
  crmStatsSchema,
  progressStatsSchema,
  verifyCaller,
  type SourceResult,
} from './sources';

export interface DashboardOptions {
  /** How long each service may take; a slower one gives null figures and `partial: true`. */
  budgetMs?: number;
  /** How long the auth service may take to say who is asking (without it there is no dashboard). */
  verifyBudgetMs?: number;
  /** The services' replicas, shared with the proxy (so a replica found down rests for both). */
  targets?: Record<DashboardSource, Upstreams>;
}

const refuse = (res: Response, statusCode: number, message: string, field?: string) =>
  res.status(statusCode).json({ message, statusCode, ...(field ? { field } : {}) });

/**
 * GET /api/dashboard/stats, composed by the gateway (ARCHITECTURE.md): the auth service says who is
 * asking (the gateway verifies nothing itself), then each service's internal stats route is asked
 * in parallel, each within the time budget, and the figures are scoped by the caller's role.
 */
export function dashboardStats(
  config: GatewayConfig,
  logger: Logger,
  { budgetMs = 800, verifyBudgetMs = 3000, targets }: DashboardOptions = {},
): RequestHandler {
  const base: Record<DashboardSource, Upstreams> = targets ?? {
    auth: new Upstreams(config.AUTH_URL),
    content: new Upstreams(config.CONTENT_URL),
    progress: new Upstreams(config.PROGRESS_URL),
    crm: new Upstreams(config.CRM_URL),
    audit: new Upstreams(config.AUDIT_URL),
  };

  const verify = (req: Request, authorization: string) => verifyCaller(base.auth, req, authorization, verifyBudgetMs);

  return async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const authorization = req.get('authorization');
    if (!authorization) return void refuse(res, 401, MSG.unauthorized);
    const query = dashboardStatsQuerySchema.safeParse(req.query);
    if (!query.success) return void refuse(res, 400, query.error.issues[0].message, query.error.issues[0].path.join('.'));

    const who = await verify(req, authorization);
    if (!('user' in who)) return void refuse(res, who.status, who.message);
    const { user } = who;

    const headers = { 'x-internal-token': config.INTERNAL_TOKEN, 'x-request-id': String(req.headers['x-request-id'] ?? '') };
    const ask = { headers, budgetMs };
    const activity = new URLSearchParams({
      limit: String(RECENT_ACTIVITY_LIMIT),
      days: String(ACTIVITY_DAYS),
      tz: query.data.tz,
    });
    // ADMIN reads everyone's actions, a curator those about their courses, anyone else only their own.
    const scope = activityScopeFor(user.role);
    if (scope === 'own') activity.set('actorId', user.id);
    const wanted = new Set(sourcesFor(user.role));
    const calls: Array<Promise<SourceResult<unknown>>> = [];
    // The course figures count what this reader can see: the content service is told who reads.
    const reader = new URLSearchParams({ role: user.role, userId: user.id });
    if (wanted.has('content'))
      calls.push(askWithin('content', base.content, `/internal/stats?${reader}`, contentStatsSchema, ask));
    if (wanted.has('auth')) calls.push(askWithin('auth', base.auth, '/internal/stats', authStatsSchema, ask));
    if (wanted.has('crm')) calls.push(askWithin('crm', base.crm, '/internal/stats', crmStatsSchema, ask));
    if (wanted.has('progress'))
      calls.push(
        askWithin(
          'progress',
          base.progress,
          `/internal/stats?${new URLSearchParams({ userId: user.id })}`,
          progressStatsSchema,
          ask,
        ),
      );
    if (wanted.has('audit'))
      calls.push(
        scope === 'courses'
          ? curatorActivity(user.id, activity, ask)
          : askWithin('audit', base.audit, `/internal/activity?${activity}`, activitySchema, ask),
      );

    const answers: SourceAnswers = {};
    for (const result of await Promise.all(calls)) {
      (answers as Record<DashboardSource, unknown>)[result.source] = result.value;
      if (result.value === null)
        logger.warn(
          { source: result.source, reason: result.reason, requestId: req.headers['x-request-id'] },
          'dashboard source unavailable',
        );
    }
    res.json(composeStats(user.role, answers, user.id));
  };

  /** A curator's feed: the content service names their courses' parts, the audit service reads what concerns them. */
  async function curatorActivity(
    userId: string,
    activity: URLSearchParams,
    ask: { headers: Record<string, string>; budgetMs: number },
  ): Promise<SourceResult<unknown>> {
    const parts = await askWithin(
      'audit',
      base.content,
      `/internal/courses/activity-scope?${new URLSearchParams({ userId })}`,
      activityScopeSchema,
      ask,
    );
    if (!parts.value) return { ...parts, reason: `course scope: ${parts.reason}` };
    const question = { ...Object.fromEntries(activity), actorId: userId, entityIds: parts.value.ids };
    return askWithin('audit', base.audit, '/internal/activity', activitySchema, ask, question);
  }
}
