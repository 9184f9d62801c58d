// First: with tracing on, it is in place before http and Express load.
import { stopTracing } from '@portal/service-kit';
import pino from 'pino';
import { createServer } from 'node:http';
import { parseGatewayConfig } from './config';
import { asEdge, createGateway } from './app';
import { metricsListener } from './observe';

const parsed = parseGatewayConfig(process.env);
if (!parsed.ok) {
  console.error(`Invalid configuration:\n${parsed.issues.map((line) => `  - ${line}`).join('\n')}`);
  process.exit(1);
}
const config = parsed.config;
const logger = pino({ name: 'gateway', level: config.LOG_LEVEL });
const { app, agent, close } = createGateway(config, logger);
const server = asEdge(app.listen(config.PORT, config.HOST, () => logger.info({ port: config.PORT }, 'gateway listening')));
const metricsPort = config.METRICS_PORT ?? config.PORT + 1000;
const metricsServer = createServer(metricsListener).listen(metricsPort, config.HOST, () =>
  logger.info({ port: metricsPort }, 'gateway metrics listening'),
);

const shutdown = (signal: string) => {
  logger.info({ signal }, 'shutting down');
  close();
  metricsServer.close();
  server.close(() => {
    agent.destroy();
    void stopTracing().finally(() => process.exit(0));
  });
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
