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
  /** Processes per service (default: PORTAL_REPLICAS, else one each); the gateway balances across them. */
  replicas?: Partial<Record<ServiceName, number>>;
}

/** Replica n (from 0) of a service listens on its port + 10·n: clear of the other services and of stacks 100 ports away. */
export const REPLICA_PORT_STEP = 10;
const MAX_REPLICAS = 9;

/**
 * PORTAL_REPLICAS: a number for every service (`2`), or per service (`content=3,progress=2`; the
 * others keep one). Anything else stops the launcher with the entry named.
 */
export function parseReplicas(raw: string | undefined): Partial<Record<ServiceName, number>> {
  const value = raw?.trim();
  if (!value) return {};
  const count = (text: string, what: string) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1 || n > MAX_REPLICAS)
      throw new Error(`PORTAL_REPLICAS: ${what} must be a whole number from 1 to ${MAX_REPLICAS}, got "${text}"`);
    return n;
  };
  if (/^\d+$/.test(value)) return Object.fromEntries(SERVICE_NAMES.map((name) => [name, count(value, 'the count')]));
  const replicas: Partial<Record<ServiceName, number>> = {};
  for (const entry of value.split(',')) {
    const [name, n] = entry.split('=').map((part) => part.trim());
    if (!SERVICE_NAMES.includes(name as ServiceName))
      throw new Error(`PORTAL_REPLICAS: "${name}" is not a service (${SERVICE_NAMES.join(', ')})`);
    replicas[name as ServiceName] = count(n ?? '', name);
  }
  return replicas;
}

/** A process's name in the stack: the service for its first replica, `content#2` for the second. */
export const replicaName = (name: ServiceName | 'gateway', index: number) => (index === 0 ? name : `${name}#${index + 1}`);

export interface Stack {
  gatewayUrl: string;
  /** Each service's first replica's port (and the gateway's). */
  ports: Record<ServiceName | 'gateway', number>;
  /** Every replica's port, per service. */
  replicaPorts: Record<ServiceName, number[]>;
  processes: Map<string, ManagedProcess>;
  env: Record<string, string>;
  /** Starts (or restarts) one replica: the first unless `index` says otherwise. */
  startOne(name: ServiceName | 'gateway', index?: number): Promise<void>;
  stopOne(name: ServiceName | 'gateway', signal?: NodeJS.Signals, index?: number): Promise<void>;
  stop(): Promise<void>;
}

const entry = (name: ServiceName | 'gateway') =>
  name === 'gateway' ? path.join(ROOT, 'gateway/dist/index.js') : path.join(ROOT, 'services', name, 'dist/index.js');

/** Starts the five services and the gateway from their built output, and waits until each is ready. */
export async function startStack(options: StackOptions): Promise<Stack> {
  const offset = options.portOffset ?? 0;
  const ports = Object.fromEntries(Object.entries(DEFAULT_PORTS).map(([k, v]) => [k, v + offset])) as Stack['ports'];
  const replicas = options.replicas ?? parseReplicas(process.env.PORTAL_REPLICAS);
  const replicaPorts = Object.fromEntries(
    SERVICE_NAMES.map((name) => [
      name,
      Array.from({ length: replicas[name] ?? 1 }, (_, i) => ports[name] + i * REPLICA_PORT_STEP),
    ]),
  ) as Stack['replicaPorts'];
  const portOf = (name: ServiceName | 'gateway', index: number) =>
    name === 'gateway' ? ports.gateway : replicaPorts[name][index];
  // Every peer is given as the list of its replicas; the gateway and the services balance across them.
  const urlsOf = (name: ServiceName) => replicaPorts[name].map((port) => `http://127.0.0.1:${port}`).join(',');
  const env: Record<string, string> = {
    // Generated once per checkout under .data (or the environment's own): nothing fixed in the repository.
    ...secretsEnv(),
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    MONGO_URL: options.mongoUrl,
    REDIS_URL: options.redisUrl,
    AUTH_URL: urlsOf('auth'),
    CONTENT_URL: urlsOf('content'),
    PROGRESS_URL: urlsOf('progress'),
    CRM_URL: urlsOf('crm'),
    AUDIT_URL: urlsOf('audit'),
    // Packages play on an origin of their own: this gateway by its other name (the portal is 127.0.0.1).
    SCORM_ORIGIN: process.env.SCORM_ORIGIN ?? `http://localhost:${ports.gateway}`,
    ...(options.dbPrefix ? { DB_PREFIX: options.dbPrefix } : {}),
    ...(options.queuePrefix ? { QUEUE_PREFIX: options.queuePrefix } : {}),
    ...options.env,
  };
  const processes = new Map<string, ManagedProcess>();

  const startOne = async (name: ServiceName | 'gateway', index = 0) => {
    const port = portOf(name, index);
    const label = replicaName(name, index);
    // Otherwise the readiness probe would happily talk to whatever already holds the port.
    if (await portAnswers(port)) throw new Error(`port ${port} for ${label} is already taken (another portal running?)`);
    // PORTAL_NODE_ARGS: extra node flags for every process of the stack, e.g. `--cpu-prof --cpu-prof-dir=…`
    // to profile a bench run (node refuses those in NODE_OPTIONS).
    const nodeArgs = (process.env.PORTAL_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const proc = startProcess(label, process.execPath, [...nodeArgs, entry(name)], {
      // Built services load the built packages: drop the source condition the tooling runs with.
      env: {
        ...process.env,
        NODE_OPTIONS: (process.env.NODE_OPTIONS ?? '').replace('--conditions=source', '').trim(),
        ...env,
        PORT: String(port),
      },
      echo: options.echo,
      logDir: options.logDir,
    });
    processes.set(label, proc);
    const probe = `http://127.0.0.1:${port}${name === 'gateway' ? '/remotes.json' : '/healthz'}`;
    await waitFor(
      async () => {
        if (proc.child.exitCode !== null)
          throw new Error(`${label} exited with code ${proc.child.exitCode} (see .data/logs/${label}.log)`);
        return (await fetch(probe)).ok;
      },
      label,
      60_000,
    );
  };
  const stopOne = async (name: ServiceName | 'gateway', signal?: NodeJS.Signals, index = 0) => {
    const label = replicaName(name, index);
    await processes.get(label)?.stop(signal);
    processes.delete(label);
  };
  const startAll = (name: ServiceName) => Promise.all(replicaPorts[name].map((_, index) => startOne(name, index)));

  // Together, each within its deadline: the gateway no longer sends them anything that matters.
  const stop = async () => {
    await Promise.all(
      [...processes].map(async ([label, proc]) => {
        await proc.stop();
        processes.delete(label);
      }),
    );
  };

  try {
    // auth first: it seeds the preset accounts the others' users sign in with.
    await startAll('auth');
    // allSettled: a service that fails must not leave the others starting after we stopped.
    const others = await Promise.allSettled(SERVICE_NAMES.filter((s) => s !== 'auth').map(startAll));
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
    replicaPorts,
    processes,
    env,
    startOne,
    stopOne,
    stop,
  };
}
