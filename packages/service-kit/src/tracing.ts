import path from 'node:path';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { markTracingPropagates } from './scope';

/**
 * OpenTelemetry traces: http (in and out, fetch included), Express, Koa, the store's driver and
 * ioredis. Started as this module loads, before those libraries are, and only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set: otherwise nothing of OpenTelemetry is even loaded. The
 * exporter reads the usual OTEL_* variables (headers, protocol timeouts; OTEL_TRACES_SAMPLER too).
 */

/** The process's name in traces: OTEL_SERVICE_NAME, or the folder of the program run (services/auth/dist/index.js → auth). */
const serviceName = (): string => {
  if (process.env.OTEL_SERVICE_NAME) return process.env.OTEL_SERVICE_NAME;
  const entry = process.argv[1] ?? '';
  const folder = path.basename(path.dirname(path.dirname(entry)));
  return folder && folder !== '.' ? folder : 'portal';
};

/** Probes and scrapes make no trace. */
const UNTRACED = /^\/(healthz|readyz|metrics)(\?|$)/;

let stop: (() => Promise<void>) | null = null;

/** Starts tracing with an exporter (the OTLP one unless given): at most once per process. */
export function startTracing(exporter?: SpanExporter): void {
  if (stop) return;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeTracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { registerInstrumentations } =
    require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } =
    require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { ExpressInstrumentation } =
    require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { KoaInstrumentation } =
    require('@opentelemetry/instrumentation-koa') as typeof import('@opentelemetry/instrumentation-koa');
  const { MongoDBInstrumentation } =
    require('@opentelemetry/instrumentation-mongodb') as typeof import('@opentelemetry/instrumentation-mongodb');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const otlp = () => {
    const { OTLPTraceExporter } =
      require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  };
  /* eslint-enable @typescript-eslint/no-require-imports */

  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName() }),
    spanProcessors: [new BatchSpanProcessor(exporter ?? otlp())],
  });
  provider.register();
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => UNTRACED.test(req.url ?? '') }),
      new UndiciInstrumentation(),
      new ExpressInstrumentation(),
      new KoaInstrumentation(),
      new MongoDBInstrumentation(),
      new IORedisInstrumentation(),
    ],
  });
  markTracingPropagates();
  stop = () => provider.shutdown();
}

/** Sends the spans still buffered (on shutdown). */
export const stopTracing = async (): Promise<void> => {
  await stop?.().catch(() => undefined);
};

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) startTracing();
