import type { Server } from 'node:http';
import type Koa from 'koa';
import type { Logger } from './logger';

export interface RunningService {
  server: Server;
  close(): Promise<void>;
}

/**
 * Listens and handles SIGTERM/SIGINT: stop accepting, let in-flight requests finish (bounded),
 * then release connections through `onClose`.
 */
export function listen(
  app: Koa,
  port: number,
  host: string,
  logger: Logger,
  onClose: () => Promise<void>,
): Promise<RunningService> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.keepAliveTimeout = 65_000; // longer than the gateway's agent keeps idle sockets
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
            setTimeout(() => {
              server.closeAllConnections();
              finish();
            }, 10_000).unref();
          });
          await onClose();
        })());
      const onSignal = (signal: string) => {
        logger.info({ signal }, 'shutting down');
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
