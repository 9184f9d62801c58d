import { z } from 'zod';
import { propagationHeaders } from './scope';

/**
 * A peer given as one URL or as a comma-separated list of its replicas' URLs
 * (`http://10.0.0.5:4002,http://10.0.0.6:4002`). Parsed to the list; a bad entry stops the process.
 */
export const upstreamListSchema = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((raw, ctx) => {
      const urls = raw
        .split(',')
        .map((entry) => entry.trim().replace(/\/+$/, ''))
        .filter(Boolean);
      if (!urls.length) ctx.addIssue({ code: 'custom', message: 'at least one URL is needed' });
      for (const url of urls) {
        if (!z.string().url().safeParse(url).success || !/^https?:\/\//.test(url))
          ctx.addIssue({ code: 'custom', message: `not an http(s) URL: ${url}` });
      }
      return urls;
    });

/** How long a replica that refused a connection is passed over. */
export const REPLICA_REST_MS = 3_000;

/** Errors that mean the request never reached the replica, so another may safely be asked. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** True when an error (Node's or fetch's, whose cause holds Node's) says no connection was made. */
export const failedToConnect = (err: unknown): boolean => {
  for (let e = err as { code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.code && NOT_CONNECTED.has(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
};

/**
 * Errors that mean the connection went away before an answer came: the replica closed it (killed,
 * or stopping) after the request may have reached it. Only an idempotent request may then be asked
 * again elsewhere.
 */
const DROPPED = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** True when the connection was refused, reset or closed without an answer. */
export const lostConnection = (err: unknown): boolean => {
  if (failedToConnect(err)) return true;
  for (let e = err as { code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.code && DROPPED.has(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
};

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Requests that may be sent again to another replica after the first could not connect. */
export const retriable = (method: string | undefined): boolean => IDEMPOTENT.has((method ?? 'GET').toUpperCase());

/** The request id and trace context of the request being handled, added to a call it makes (its own headers win). */
const withPropagation = (init: RequestInit): RequestInit => {
  const extra = propagationHeaders();
  const names = Object.keys(extra);
  if (!names.length) return init;
  const headers = new Headers(init.headers);
  for (const name of names) if (!headers.has(name)) headers.set(name, extra[name]);
  return { ...init, headers };
};

/**
 * Round robin over a service's replicas. A replica that refused a connection rests for a few
 * seconds; when every one rests, they are all tried again (a refusal is cheap, a blank answer is not).
 */
export class Upstreams {
  private next = 0;
  private readonly restingUntil = new Map<string, number>();

  constructor(
    readonly urls: readonly string[],
    private readonly restMs = REPLICA_REST_MS,
  ) {
    if (!urls.length) throw new Error('Upstreams need at least one URL');
  }

  /** The next replica to ask, skipping `except` (the one that just failed) and resting ones when it can. */
  pick(except?: string): string {
    const now = Date.now();
    const { urls } = this;
    for (let i = 0; i < urls.length; i++) {
      const url = urls[(this.next + i) % urls.length];
      if (url === except || (this.restingUntil.get(url) ?? 0) > now) continue;
      this.next = (this.next + i + 1) % urls.length;
      return url;
    }
    const url = urls.find((u) => u !== except) ?? urls[0];
    this.next = (urls.indexOf(url) + 1) % urls.length;
    return url;
  }

  /** A replica refused a connection: pass it over for a while. */
  rest(url: string): void {
    this.restingUntil.set(url, Date.now() + this.restMs);
  }

  /**
   * fetch() against the service, at the path given: a request that could not connect is asked once
   * more on another replica when it is idempotent (nothing reached the first, so nothing happens twice).
   */
  async fetch(path: string, given: RequestInit = {}): Promise<Response> {
    const init = withPropagation(given);
    const first = this.pick();
    try {
      return await fetch(`${first}${path}`, init);
    } catch (err) {
      // Refused, reset, or closed without an answer (a replica killed mid-request): only a request
      // that may safely run twice is asked again.
      if (!lostConnection(err)) throw err;
      this.rest(first);
      if (this.urls.length < 2 || !retriable(init.method) || init.signal?.aborted) throw err;
      return fetch(`${this.pick(first)}${path}`, init);
    }
  }
}
