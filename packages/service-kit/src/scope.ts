import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What one request carries to the calls it makes: its id and, with tracing off, the caller's trace
 * context; and its method and matched route, under which the store commands it sends are counted.
 */
export interface RequestScope {
  requestId: string;
  traceparent?: string;
  tracestate?: string;
  /** The Koa context: `_matchedRoute` is known only once a router has matched it. */
  request?: { method: string; _matchedRoute?: unknown };
}

/**
 * The one AsyncLocalStorage of a service. Its price on Node 20 is a hook on every promise: about
 * 10 µs of CPU on a request that does nothing else (autocannon on /healthz: 43–47 µs without, 51–59
 * with), more on a request that makes many promises; each further instance copies its store onto
 * every promise again, so the metrics' per-route counts read this one. Node 24's AsyncLocalStorage
 * (async context frames) does without the hook. With tracing on, OpenTelemetry's context needs the
 * same hook anyway.
 */
const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `work` (a request's handling) with its scope: service calls and audit events made inside it carry the id. */
export const runInScope = <T>(scope: RequestScope, work: () => T): T => storage.run(scope, work);

/** The id of the request being handled, when there is one (not in a queue worker or a timer). */
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;

/** The request being handled, when there is one. */
export const currentRequest = (): RequestScope['request'] => storage.getStore()?.request;

/** Whether OpenTelemetry propagates trace context itself (then the raw headers are not copied). */
let tracingPropagates = false;
export const markTracingPropagates = () => {
  tracingPropagates = true;
};

/**
 * Headers a call to another service adds: the request id, and the W3C trace context received when
 * tracing is off (so a trace begun before the portal still joins up through it). With tracing on,
 * the instrumentation writes `traceparent` for the span of the call itself.
 */
export const propagationHeaders = (): Record<string, string> => {
  const scope = storage.getStore();
  if (!scope) return {};
  const headers: Record<string, string> = { 'x-request-id': scope.requestId };
  if (!tracingPropagates && scope.traceparent) {
    headers.traceparent = scope.traceparent;
    if (scope.tracestate) headers.tracestate = scope.tracestate;
  }
  return headers;
};
