import path from 'node:path';
import type { Instrumentation } from '@opentelemetry/instrumentation';
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

/** A module of OpenTelemetry, loaded only once tracing starts. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is on
const load = <M>(module: string): M => require(module) as M;

/** Instrumentations used as they come: the module and the class it exports. */
const PLAIN_INSTRUMENTATIONS: Array<[module: string, name: string]> = [
  ['@opentelemetry/instrumentation-undici', 'UndiciInstrumentation'], // fetch()
  ['@opentelemetry/instrumentation-express', 'ExpressInstrumentation'],
  ['@opentelemetry/instrumentation-koa', 'KoaInstrumentation'],
  ['@opentelemetry/instrumentation-mongodb', 'MongoDBInstrumentation'],
  ['@opentelemetry/instrumentation-ioredis', 'IORedisInstrumentation'],
];

/** Starts tracing, exporting over OTLP: at most once per process. */
export function startTracing(): void {
  if (stop) return;
  const { NodeTracerProvider, BatchSpanProcessor } =
    load<typeof import('@opentelemetry/sdk-trace-node')>('@opentelemetry/sdk-trace-node');
  const { resourceFromAttributes } = load<typeof import('@opentelemetry/resources')>('@opentelemetry/resources');
  const { registerInstrumentations } = load<typeof import('@opentelemetry/instrumentation')>('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = load<typeof import('@opentelemetry/instrumentation-http')>(
    '@opentelemetry/instrumentation-http',
  );
  const otlp = () => {
    const { OTLPTraceExporter } = load<typeof import('@opentelemetry/exporter-trace-otlp-http')>(
      '@opentelemetry/exporter-trace-otlp-http',
    );
    return new OTLPTraceExporter();
  };

  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName() }),
    spanProcessors: [new BatchSpanProcessor(otlp())],
  });
  provider.register();
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => UNTRACED.test(req.url ?? '') }),
      ...PLAIN_INSTRUMENTATIONS.map(([module, name]) => new (load<Record<string, new () => Instrumentation>>(module)[name])()),
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
