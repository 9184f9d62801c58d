import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { MSG, activityScopeFor, type ScopedHistory } from '@portal/contracts';
import type { Upstreams } from '@portal/service-kit';
import { activityScopeSchema, askWithin, verifyCaller } from './sources';

/** What the audit service's answer brings to the reader; the rest (its length, its encoding) is the fetch's. */
const PASSED_HEADERS = ['content-type', 'content-disposition', 'cache-control'];

export interface HistoryOptions {
  /** How long the auth service may take to say who is asking, and the content service to name the courses' parts. */
  budgetMs?: number;
  /** How long the audit service may take to begin its answer (a file streams on after that). */
  readBudgetMs?: number;
}

/**
 * GET /api/audit and /api/audit/export, the «История действий» dialog and its file. ADMIN's (and
 * anyone's refusal) go on to the audit service as they are. A curator's are their part of the trail
 * scoped as their dashboard feed is: the content service names their courses' parts,
 * and the audit service reads the curator's own actions and the records about those parts, with
 * the same paging and filters (the query string passes as it came).
 */
export function curatorHistory(
  targets: { auth: Upstreams; content: Upstreams; audit: Upstreams },
  internalToken: string,
  logger: Logger,
  { budgetMs = 3000, readBudgetMs = 30_000 }: HistoryOptions = {},
): RequestHandler {
  const refuse = (res: Response, statusCode: number, message: string) => res.status(statusCode).json({ message, statusCode });

  return async (req, res, next) => {
    const authorization = req.get('authorization');
    // Without a token the audit service refuses as it refuses everyone.
    if (!authorization) return next();
    const who = await verifyCaller(targets.auth, req, authorization, budgetMs);
    if (!('user' in who)) return void refuse(res, who.status, who.message);
    const { user } = who;
    if (activityScopeFor(user.role) !== 'courses') return next();

    const requestId = String(req.headers['x-request-id'] ?? '');
    const headers = { 'x-internal-token': internalToken, 'x-request-id': requestId };
    const parts = await askWithin(
      'content',
      targets.content,
      `/internal/courses/activity-scope?${new URLSearchParams({ userId: user.id })}`,
      activityScopeSchema,
      { headers, budgetMs },
    );
    if (!parts.value) {
      logger.warn({ reason: parts.reason, requestId }, 'curator history: course scope unavailable');
      return void refuse(res, 503, MSG.serviceUnavailable);
    }

    const question: ScopedHistory = {
      reader: { id: user.id, fullName: user.fullName, email: user.email },
      entityIds: parts.value.ids,
    };
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    const path = `/internal/audit${req.path.endsWith('/export') ? '/export' : ''}${query}`;
    // The budget is for the answer to begin: a long file streams on past it, until the reader leaves.
    const reading = new AbortController();
    const budget = setTimeout(() => reading.abort(), readBudgetMs);
    res.once('close', () => reading.abort());
    try {
      const answer = await targets.audit.fetch(path, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: req.get('accept') ?? '*/*' },
        body: JSON.stringify(question),
        signal: reading.signal,
      });
      clearTimeout(budget);
      res.status(answer.status);
      for (const name of PASSED_HEADERS) {
        const value = answer.headers.get(name);
        if (value !== null) res.setHeader(name, value);
      }
      if (!answer.body) return void res.end();
      Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>)
        .on('error', () => res.destroy())
        .pipe(res);
    } catch (err) {
      clearTimeout(budget);
      if (res.destroyed) return;
      logger.warn({ err: (err as Error).message, requestId }, 'curator history: audit service unavailable');
      refuse(res, 503, MSG.serviceUnavailable);
    }
  };
}
