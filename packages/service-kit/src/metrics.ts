import type { Context, Next } from 'koa';
import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import { Counter, Gauge, Histogram, collectDefaultMetrics, register } from 'prom-client';
import { currentRequest, type RequestScope } from './scope';

/**
 * Prometheus metrics of a process, scraped at /metrics: a service answers it on its own port (the
 * gateway never forwards it: it only forwards /api), the gateway on its METRICS_PORT. Every series
 * is named in deploy/prometheus/alerts.yml or the Grafana dashboard beside it. What is counted on a
 * request's way is a histogram observation; queue depths and the outbox are read only when scraped.
 */

/** Request and call durations, in seconds: 2 ms to 10 s. */
const SECONDS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const once = <T>(name: string, make: () => T): T => (register.getSingleMetric(name) as T | undefined) ?? make();

export const httpDuration = once(
  'portal_http_request_duration_seconds',
  () =>
    new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Requests answered, by route template, method and status (count = rate, 5xx = errors)',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: SECONDS,
    }),
);

const storeDuration = once(
  'portal_store_command_duration_seconds',
  () =>
    new Histogram({
      name: 'portal_store_command_duration_seconds',
      help: 'Store (MongoDB wire protocol) commands, by command and outcome',
      labelNames: ['command', 'outcome'] as const,
      buckets: SECONDS,
    }),
);

const storeOperations = once(
  'portal_store_operations_total',
  () =>
    new Counter({
      name: 'portal_store_operations_total',
      help: 'Store commands sent while answering a request, by its route template and method (÷ requests = operations per request)',
      labelNames: ['route', 'method'] as const,
    }),
);

const redisDuration = once(
  'portal_redis_command_duration_seconds',
  () =>
    new Histogram({
      name: 'portal_redis_command_duration_seconds',
      help: 'Redis commands of the request connection, by command and outcome',
      labelNames: ['command', 'outcome'] as const,
      buckets: SECONDS,
    }),
);

/** Queues whose depth this process reports, and outboxes whose size it reports. */
const watchedQueues = new Set<Queue>();
const outboxes = new Map<string, () => Promise<number>>();

/** A scrape never waits long on a queue or a store that is away: that reading is left out. */
const within = <T>(work: Promise<T>, ms = 1000): Promise<T> =>
  Promise.race([work, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

once(
  'portal_queue_jobs',
  () =>
    new Gauge({
      name: 'portal_queue_jobs',
      help: 'Jobs in a BullMQ queue, by state (waiting, active, delayed, failed)',
      labelNames: ['queue', 'state'] as const,
      async collect() {
        this.reset();
        await Promise.all(
          [...watchedQueues].map(async (queue) => {
            const counts = await within(queue.getJobCounts('waiting', 'active', 'delayed', 'failed')).catch(() => null);
            for (const [state, value] of Object.entries(counts ?? {})) this.set({ queue: queue.name, state }, value);
          }),
        );
      },
    }),
);

const queueEvents = once(
  'portal_queue_job_events_total',
  () =>
    new Counter({
      name: 'portal_queue_job_events_total',
      help: 'Jobs this process failed or found stalled, by queue and event',
      labelNames: ['queue', 'event'] as const,
    }),
);

once(
  'portal_audit_outbox_events',
  () =>
    new Gauge({
      name: 'portal_audit_outbox_events',
      help: 'Audit events waiting in the outbox of a service database (Redis was away when they were published)',
      labelNames: ['service'] as const,
      async collect() {
        this.reset();
        await Promise.all(
          [...outboxes].map(async ([service, size]) => {
            const value = await within(size()).catch(() => null);
            if (value !== null) this.set({ service }, value);
          }),
        );
      },
    }),
);

export const loginFailures = once(
  'portal_login_failures_total',
  () =>
    new Counter({
      name: 'portal_login_failures_total',
      help: 'Refused logins: a wrong password, no such account, or too many attempts',
      labelNames: ['reason'] as const,
    }),
);

export const courseBuilderJobs = once(
  'portal_course_builder_jobs_total',
  () =>
    new Counter({
      name: 'portal_course_builder_jobs_total',
      help: 'Course-builder jobs, by kind and outcome (started, succeeded, failed, cancelled)',
      labelNames: ['kind', 'outcome'] as const,
    }),
);

/**
 * prom-client's gauges named `_total`, which `promtool check metrics` refuses (the suffix is for
 * counters). Each is the sum of the family beside it by type (`nodejs_active_handles{type}` …), so
 * nothing is lost: `sum(nodejs_active_handles)` says the same.
 */
const GAUGES_NAMED_AS_COUNTERS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

let processMetrics = false;
/** Event-loop lag, heap, CPU, handles (prom-client's defaults), once per process. */
export const collectProcessMetrics = (service: string): void => {
  if (processMetrics) return;
  processMetrics = true;
  register.setDefaultLabels({ service });
  collectDefaultMetrics();
  for (const name of GAUGES_NAMED_AS_COUNTERS) register.removeSingleMetric(name);
};

/** Reports a queue's depth by state at each scrape. */
export const watchQueue = (queue: Queue): void => {
  watchedQueues.add(queue);
};
export const unwatchQueue = (queue: Queue): void => {
  watchedQueues.delete(queue);
};

/** Counts the jobs a worker fails and the stalled jobs it finds. */
export const watchWorker = (worker: Worker): void => {
  worker.on('failed', () => queueEvents.inc({ queue: worker.name, event: 'failed' }));
  worker.on('stalled', () => queueEvents.inc({ queue: worker.name, event: 'stalled' }));
};

/** Reports an outbox's size at each scrape. */
export const watchOutbox = (service: string, size: () => Promise<number>): (() => void) => {
  outboxes.set(service, size);
  return () => outboxes.delete(service);
};

/** The route template a request was matched to (`unmatched` for a path no route knows). */
const routeOf = (ctx: NonNullable<RequestScope['request']>): string =>
  ctx._matchedRoute ? String(ctx._matchedRoute) : 'unmatched';

/**
 * Times every command on the store connection (the driver's command monitoring), and counts those
 * sent while answering a request under its route: work outside requests (workers, sweeps) is not counted.
 */
export const timeStoreCommands = (store: Connection): void => {
  const client = store.getClient();
  client.on('commandStarted', () => {
    // The request it is sent for (its scope, see requestContext): counted under its route.
    const request = currentRequest();
    if (request) storeOperations.inc({ route: routeOf(request), method: request.method });
  });
  const observe = (outcome: 'ok' | 'error') => (event: { commandName: string; duration: number }) =>
    storeDuration.observe({ command: event.commandName, outcome }, event.duration / 1000);
  client.on('commandSucceeded', observe('ok'));
  client.on('commandFailed', observe('error'));
};

/** Times every command sent on an ioredis connection (pipelines included, command by command). */
export const timeRedisCommands = (redis: Redis): void => {
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command, stream) => {
    const started = performance.now();
    const result = send(command, stream);
    const observe = (outcome: 'ok' | 'error') => () =>
      redisDuration.observe({ command: command.name, outcome }, (performance.now() - started) / 1000);
    command.promise.then(observe('ok'), observe('error'));
    return result;
  }) as Redis['sendCommand'];
};

/** The text a Prometheus scrape reads. */
export const metricsText = async (): Promise<{ contentType: string; body: string }> => ({
  contentType: register.contentType,
  body: await register.metrics(),
});

/** Koa: /metrics, and each request's duration under its route template (`unmatched` for a path no route knows). */
export const serviceMetrics = () => async (ctx: Context, next: Next) => {
  if (ctx.path === '/metrics' && ctx.method === 'GET') {
    const { contentType, body } = await metricsText();
    ctx.type = contentType;
    ctx.body = body;
    return;
  }
  const started = performance.now();
  try {
    await next();
  } finally {
    httpDuration.observe({ route: routeOf(ctx), method: ctx.method, status: ctx.status }, (performance.now() - started) / 1000);
  }
};
