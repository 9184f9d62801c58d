import path from 'node:path';
import { DEFAULT_PORTS, SERVICE_NAMES, type ServiceName } from '@portal/contracts';
import { startProcess, type ManagedProcess } from './processes';
import { secretsEnv } from './secrets';
import { ROOT, portAnswers, waitFor } from './util';

export interface StackOptions {
  mongoUrl: string;
  redisUrl: string;
  /** Added to every default port, so a test stack can run beside a developer's portal. */
  portOffset?: number;
  dbPrefix?: string;
  queuePrefix?: string;
  echo?: boolean;
  logDir?: string;
  env?: Record<string, string>;
}

export interface Stack {
  gatewayUrl: string;
  ports: Record<ServiceName | 'gateway', number>;
  processes: Map<string, ManagedProcess>;
  env: Record<string, string>;
  startOne(name: ServiceName | 'gateway'): Promise<void>;
  stopOne(name: ServiceName | 'gateway', signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

const entry = (name: ServiceName | 'gateway') =>
  name === 'gateway' ? path.join(ROOT, 'gateway/dist/index.js') : path.join(ROOT, 'services', name, 'dist/index.js');

/** Starts the five services and the gateway from their built output, and waits until each is ready. */
export async function startStack(options: StackOptions): Promise<Stack> {
  const offset = options.portOffset ?? 0;
  const ports = Object.fromEntries(Object.entries(DEFAULT_PORTS).map(([k, v]) => [k, v + offset])) as Stack['ports'];
  const urlOf = (name: ServiceName) => `http://127.0.0.1:${ports[name]}`;
  const env: Record<string, string> = {
    // Generated once per checkout under .data (or the environment's own): nothing fixed in the repository.
    ...secretsEnv(),
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    MONGO_URL: options.mongoUrl,
    REDIS_URL: options.redisUrl,
    AUTH_URL: urlOf('auth'),
    CONTENT_URL: urlOf('content'),
    PROGRESS_URL: urlOf('progress'),
    CRM_URL: urlOf('crm'),
    AUDIT_URL: urlOf('audit'),
    ...(options.dbPrefix ? { DB_PREFIX: options.dbPrefix } : {}),
    ...(options.queuePrefix ? { QUEUE_PREFIX: options.queuePrefix } : {}),
    ...options.env,
  };
  const processes = new Map<string, ManagedProcess>();

  const startOne = async (name: ServiceName | 'gateway') => {
    // Otherwise the readiness probe would happily talk to whatever already holds the port.
    if (await portAnswers(ports[name]))
      throw new Error(`port ${ports[name]} for ${name} is already taken (another portal running?)`);
    const proc = startProcess(name, process.execPath, [entry(name)], {
      // Built services load the built packages: drop the source condition the tooling runs with.
      env: {
        ...process.env,
        NODE_OPTIONS: (process.env.NODE_OPTIONS ?? '').replace('--conditions=source', '').trim(),
        ...env,
        PORT: String(ports[name]),
      },
      echo: options.echo,
      logDir: options.logDir,
    });
    processes.set(name, proc);
    const probe = name === 'gateway' ? `http://127.0.0.1:${ports.gateway}/remotes.json` : `${urlOf(name)}/healthz`;
    await waitFor(
      async () => {
        if (proc.child.exitCode !== null)
          throw new Error(`${name} exited with code ${proc.child.exitCode} (see .data/logs/${name}.log)`);
        return (await fetch(probe)).ok;
      },
      name,
      60_000,
    );
  };
  const stopOne = async (name: ServiceName | 'gateway', signal?: NodeJS.Signals) => {
    await processes.get(name)?.stop(signal);
    processes.delete(name);
  };

  // Together, each within its deadline: the gateway no longer sends them anything that matters.
  const stop = async () => {
    await Promise.all([...processes.keys()].map((name) => stopOne(name as ServiceName | 'gateway')));
  };

  try {
    // auth first: it seeds the preset accounts the others' users sign in with.
    await startOne('auth');
    // allSettled: a service that fails must not leave the others starting after we stopped.
    const others = await Promise.allSettled(SERVICE_NAMES.filter((s) => s !== 'auth').map(startOne));
    const failed = others.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    await startOne('gateway');
  } catch (err) {
    await stop(); // what started must not outlive a start that failed half way
    throw err;
  }

  return {
    gatewayUrl: `http://127.0.0.1:${ports.gateway}`,
    ports,
    processes,
    env,
    startOne,
    stopOne,
    stop,
  };
}
