import type { Context, Next } from 'koa';
import type Router from '@koa/router';
import type { Connection } from 'mongoose';
import type { Redis } from 'ioredis';
import type { ServiceName } from '@portal/contracts';
import { AuditPublisher } from './audit';
import { createAuthenticate } from './auth';
import type { BaseConfig } from './config';
import { createServiceApp } from './app';
import { createTokenVerifier } from './jwt';
import { createLogger, type Logger } from './logger';
import { createMailer, startMailSender, type Mailer } from './mail';
import { timeRedisCommands, timeStoreCommands } from './metrics';
import { connectStore, storeIsUp } from './mongo';
import { Upstreams } from './upstreams';
import { PrincipalCache, httpPrincipalLookup, redisVersionLookup, type PrincipalLookup } from './principals';
import { createRedis, redisIsUp } from './redis';
import { listen, type RunningService } from './run';
import { keepVersionsInRedis } from './versionedCache';
import { stopTracing } from './tracing';

export type Middleware = (ctx: Context, next: Next) => Promise<void>;

/** Everything a service's routes need, built once at start (and once per test file). */
export interface ServiceContext<C extends BaseConfig = BaseConfig> {
  name: ServiceName;
  config: C;
  logger: Logger;
  store: Connection;
  redis: Redis;
  subscriber: Redis;
  principals: PrincipalCache;
  authenticate: Middleware;
  audit: AuditPublisher;
  /** Off unless SMTP_URL is set; a send never fails or holds up a request. */
  mailer: Mailer;
  /** Stops this process's mail sender and closes the queue (what is queued stays for another process). */
  stopMail(): Promise<void>;
}

export interface ContextOptions {
  /** How to find the current user; defaults to asking the auth service. */
  lookup?: (store: Connection) => PrincipalLookup;
  logger?: Logger;
  storeAttempts?: number;
}

export const databaseName = (config: BaseConfig, name: ServiceName) => `${config.DB_PREFIX}${name}`;

export async function createServiceContext<C extends BaseConfig>(
  name: ServiceName,
  config: C,
  { lookup, logger = createLogger(name, config.LOG_LEVEL), storeAttempts }: ContextOptions = {},
): Promise<ServiceContext<C>> {
  const store = await connectStore(config.MONGO_URL, databaseName(config, name), logger, { attempts: storeAttempts });
  timeStoreCommands(store);
  const redis = createRedis(config.REDIS_URL, logger, { failFast: true });
  timeRedisCommands(redis);
  keepVersionsInRedis(store, redis);
  const mailer = createMailer(config, logger, { connection: redis, prefix: config.QUEUE_PREFIX });
  // Every process with SMTP works the mail queue: any replica delivers what any other queued.
  const mailConnection = config.SMTP_URL ? createRedis(config.REDIS_URL, logger) : null;
  const mailSender = mailConnection
    ? startMailSender(config, logger, { connection: mailConnection, prefix: config.QUEUE_PREFIX })
    : null;
  const subscriber = createRedis(config.REDIS_URL, logger);
  const principals = new PrincipalCache(
    lookup ? lookup(store) : httpPrincipalLookup(new Upstreams(config.AUTH_URL), config.INTERNAL_TOKEN),
    undefined,
    redisVersionLookup(redis),
  );
  principals.listen(subscriber, logger);
  const authenticate = createAuthenticate(createTokenVerifier(config.JWT_SECRET), principals);
  const audit = new AuditPublisher({ service: name, connection: redis, prefix: config.QUEUE_PREFIX, store, logger });
  const stopMail = async () => {
    await mailSender?.close();
    mailConnection?.disconnect();
    await mailer.close();
  };
  return { name, config, logger, store, redis, subscriber, principals, authenticate, audit, mailer, stopMail };
}

export async function closeServiceContext(ctx: ServiceContext): Promise<void> {
  await ctx.audit.close();
  await ctx.stopMail();
  ctx.subscriber.disconnect();
  ctx.redis.disconnect();
  await ctx.store.close();
}

export const readinessOf = (ctx: ServiceContext) => ({
  store: () => storeIsUp(ctx.store),
  redis: () => redisIsUp(ctx.redis),
});

export interface ServiceDefinition<C extends BaseConfig> {
  name: ServiceName;
  config: C;
  port: number;
  routers: (ctx: ServiceContext<C>) => Router[];
  lookup?: ContextOptions['lookup'];
  /** Extra work at start (a queue worker, a seed); its result is closed on shutdown. */
  onStart?: (ctx: ServiceContext<C>) => Promise<(() => Promise<void>) | void>;
  bodyLimit?: string;
}

/** The whole life of a service process: connect, build, listen, shut down gracefully. */
export async function runService<C extends BaseConfig>(def: ServiceDefinition<C>): Promise<RunningService> {
  const ctx = await createServiceContext(def.name, def.config, { lookup: def.lookup });
  const stop = (await def.onStart?.(ctx)) ?? undefined;
  const app = createServiceApp({
    name: def.name,
    logger: ctx.logger,
    routers: def.routers(ctx),
    readiness: readinessOf(ctx),
    bodyLimit: def.bodyLimit,
  });
  const running = await listen(
    app,
    def.port,
    def.config.HOST,
    ctx.logger,
    async () => {
      await stop?.();
      await closeServiceContext(ctx);
      await stopTracing();
    },
    def.config.SHUTDOWN_TIMEOUT_MS,
  );
  ctx.logger.info({ port: def.port }, `${def.name} service listening`);
  return running;
}
