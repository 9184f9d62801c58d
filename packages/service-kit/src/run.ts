import type { Server } from 'node:http';
import type Koa from 'koa';
import { answerMalformedRequests } from './input';
import type { Logger } from './logger';

export interface RunningService {
  server: Server;
  close(): Promise<void>;
}

/**
 * How long a service keeps an idle keep-alive socket: longer than the gateway's agent keeps one
 * (60 s), so the gateway never sends a request down a socket the service is closing at that
 * moment. With node's default of 5 s, a request after a pause raced the close and came back as a
 * reset connection: a 503 for a write, which the gateway does not ask again.
 */
export const UPSTREAM_KEEP_ALIVE_MS = 65_000;

/** A server as the gateway's upstream: answers malformed requests, and outlives the gateway's idle sockets. */
export function asUpstream(server: Server): Server {
  server.keepAliveTimeout = UPSTREAM_KEEP_ALIVE_MS;
  return answerMalformedRequests(server);
}

/** In-flight requests get this long to finish once a stop is asked for. */
const DRAIN_MS = 10_000;

/**
 * Listens and handles SIGTERM/SIGINT: stop accepting, let in-flight requests finish (bounded),
 * then release connections through `onClose`. The whole stop is bounded by `shutdownTimeoutMs`:
 * a store or queue connection that never closes cannot keep a stopping process alive.
 */
export function listen(
  app: Koa,
  port: number,
  host: string,
  logger: Logger,
  onClose: () => Promise<void>,
  shutdownTimeoutMs = 15_000,
): Promise<RunningService> {
  return new Promise((resolve, reject) => {
    const server = asUpstream(app.listen(port, host));
    server.once('error', reject);
    server.once('listening', () => {
      let closing: Promise<void> | null = null;
      const close = () =>
        (closing ??= (async () => {
          await new Promise<void>((done) => {
            // Keep-alive sockets become idle as their last response ends: close each one then.
            const sweep = setInterval(() => server.closeIdleConnections(), 50);
            const finish = () => {
              clearInterval(sweep);
              done();
            };
            server.close(finish);
            server.closeIdleConnections();
            setTimeout(
              () => {
                server.closeAllConnections();
                finish();
              },
              Math.min(DRAIN_MS, shutdownTimeoutMs),
            ).unref();
          });
          await onClose();
        })());
      const onSignal = (signal: string) => {
        logger.info({ signal }, 'shutting down');
        setTimeout(() => {
          logger.error({ timeoutMs: shutdownTimeoutMs }, 'shutdown did not finish in time: exiting');
          process.exit(1);
        }, shutdownTimeoutMs).unref();
        close().then(
          () => process.exit(0),
          (err) => {
            logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
      resolve({ server, close });
    });
  });
}
