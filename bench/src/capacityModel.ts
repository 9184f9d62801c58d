import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

/** The measured costs the capacity part writes (capacityCosts.ts) and the model reads. */
export interface CostsRun {
  store: string;
  replicas: number;
  seconds: number;
  answered: number;
  answeredPerSecond: number;
  realPerSecond: number;
  loadAverageBefore: number;
  kinds: Array<{ name: string; expectBad: boolean; perSecond: number; p95: number; non2xx: number; errors: number }>;
  /** CPU ms per answered request by process; `machine` is the whole machine's busy CPU in the window. */
  cpuMsPerRequest: Record<string, number>;
  storeOperations: number;
  routes: Array<{ route: string; requests: number; operations: number }>;
}
export interface StoreFloor {
  store: string;
  seconds: number;
  answeredPerSecond: number;
  p95: number;
  non2xx: number;
  errors: number;
  loadAverageBefore: number;
  cpuMsPerRequest: Record<string, number>;
}
export interface CapacityCosts {
  measuredAt: string;
  quick: boolean;
  host: { cores: number; cpu: string; memoryGiB: number; loadAverageAtEnd: number; note: string };
  runs: CostsRun[];
  floors: StoreFloor[];
  frontEnd: Array<{ what: string; bytes: number }>;
}

/* ------------------------------------------------------------------------------ the activity model */

/**
 * Who does what at the busiest minute. Each constant says why; the document prints them all.
 * Populations are counted in employees (everyone with an account).
 */
export const POPULATIONS = [10_000, 100_000, 1_000_000];

export interface Assumption {
  value: number;
  unit: string;
  why: string;
}

export const ACTIVITY = {
  peakActiveShare: {
    value: 0.1,
    unit: 'of employees',
    why: 'signed in and clicking in the busiest minute: a mandatory-training deadline on a weekday morning; a corporate portal averages 1–3% over the working day',
  },
  stormsPer1000: {
    value: 1,
    unit: 'storm per 1,000 employees',
    why: 'the brief: one exam storm per 1,000 people, all of them in the same peak minute (a shared deadline), the worst case',
  },
  stormGroup: {
    value: 100,
    unit: 'learners per storm',
    why: 'a department sitting one exam; 10 storms of 100 at 10,000 employees are the bench exam storm (1,000 learners within 60 s)',
  },
  stormQuestions: { value: 20, unit: 'questions', why: 'the exam storm of BUDGETS.md: a 20-question quiz' },
} satisfies Record<string, Assumption>;

/**
 * API calls per active person per minute, by the mixed load's kinds (the names before « (» match the
 * bench's kinds, so each kind's measured store operations apply). A screen makes its own calls
 * (profile, counts), counted here in its kind.
 */
export const REQUESTS_PER_ACTIVE_MINUTE: Array<{ kind: string; perMinute: number; writes: boolean; why: string }> = [
  { kind: 'browse courses', perMinute: 1, writes: false, why: 'the catalogue and «my courses» once a minute while choosing' },
  { kind: 'open a course', perMinute: 1.5, writes: false, why: 'a course page and its outline, back and forth between lessons' },
  {
    kind: 'complete a lesson',
    perMinute: 1,
    writes: true,
    why: 'a lesson read takes 1–3 minutes; its blocks and the completion',
  },
  { kind: 'start and submit a quiz', perMinute: 0.1, writes: true, why: 'a quiz in every other lesson, outside the storms' },
  { kind: 'CRM reads', perMinute: 0.05, writes: false, why: 'curators and sales staff, about 1% of the active people' },
  { kind: 'CRM writes', perMinute: 0.01, writes: true, why: 'one write for five CRM reads' },
  { kind: 'audit reads', perMinute: 0.01, writes: false, why: 'administrators reading the history' },
];

/**
 * An exam storm's peak minute per learner: the quiz card and the start (2 calls), and one answer
 * save a minute (20 answers over a 20-minute quiz); the submit minute is lighter (1 call and a save).
 */
export const STORM_REQUESTS_PER_LEARNER_MINUTE = 3;

/** What the model assumes of the production machines: not measured here, each with its reason. */
/** What each assumption is, as the document's tables name it. */
const ASSUMPTION_NAMES: Record<string, string> = {
  peakActiveShare: 'active at the peak',
  stormsPer1000: 'exam storms',
  stormGroup: 'a storm’s group',
  stormQuestions: 'a storm’s quiz',
  answerFilesMiB: 'answer files',
  uploadsMiBPerCourse: 'lesson uploads',
  scormMiB: 'a SCORM package',
  coursesPer1000: 'the catalogue',
  scormShare: 'SCORM courses',
};
const assumptionRow = ([key, a]: [string, Assumption]) => [
  ASSUMPTION_NAMES[key] ?? key,
  `${num(a.value, a.value < 1 ? 2 : 0)} ${a.unit}`,
  a.why,
];

export const INFRASTRUCTURE = {
  podCpu: {
    value: 1,
    unit: 'core (request = limit)',
    why: 'a Node process runs its JavaScript on one thread: a limit above one core buys only the garbage collector and libuv threads',
  },
  hpaTarget: {
    value: 0.7,
    unit: 'of the request',
    why: 'leaves 30% for a pod lost or a burst while the HPA adds pods, about a minute',
  },
  mongoPrimaryOps: {
    value: 20_000,
    unit: 'operations/s',
    why: 'indexed point reads and single-document writes on an 8-vCPU primary with the working set in memory; not measured here, as no MongoDB runs on these machines',
  },
  shardAt: {
    value: 0.5,
    unit: 'of the primary’s operations/s',
    why: 'the other half is for a re-election, an index build, a backup and next year',
  },
  redisOpsPerCore: {
    value: 80_000,
    unit: 'commands/s on one core',
    why: 'Redis runs commands on one thread; short commands and BullMQ’s scripts mixed',
  },
  auditEventBytes: { value: 1_500, unit: 'bytes in Redis per queued event', why: 'a BullMQ job: its hash and the event’s JSON' },
  auditBacklogMinutes: {
    value: 15,
    unit: 'minutes of events kept in Redis',
    why: 'the audit worker stopped for a deploy or an outage; completed jobs are removed, so only a backlog stays',
  },
  answerFilesMiB: { value: 5, unit: 'MiB per employee a year', why: 'file answers and assignments, a few a year' },
  uploadsMiBPerCourse: { value: 40, unit: 'MiB per course', why: 'images and video in native lessons' },
  scormMiB: { value: 50, unit: 'MiB per SCORM package', why: 'the bench SCORM package (BUDGETS.md)' },
  coursesPer1000: {
    value: 20,
    unit: 'courses per 1,000 employees',
    why: 'a catalogue grows with the company, not with each learner',
  },
  scormShare: { value: 0.3, unit: 'of courses', why: 'bought-in courses come as SCORM' },
  sessionsPerActiveHour: {
    value: 1,
    unit: 'page loads per active person an hour',
    why: 'a single-page portal: one full load per sitting, the remotes after it as the person moves',
  },
  firstVisitShare: {
    value: 0.2,
    unit: 'of page loads',
    why: 'a new device, a cleared cache, or the first load after a deploy of that remote',
  },
} satisfies Record<string, Assumption>;

/** The remotes a learner's sitting loads (the landing, the catalogue, the player, the dashboard). */
const LEARNER_REMOTES = ['mf-landing', 'mf-courses', 'mf-player', 'mf-dashboard'];

/* ------------------------------------------------------------------------------ the chart */

export interface PodSettings {
  cpuRequest: number;
  cpuLimit: number;
  minReplicas: number;
  maxReplicas: number;
  target: number;
}

type Values = Record<string, unknown>;
const isObject = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Helm's merge of a values file over another (maps merged, everything else replaced). */
export function mergeValues(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [key, value] of Object.entries(over))
    out[key] = isObject(value) && isObject(out[key]) ? mergeValues(out[key], value) : value;
  return out;
}

/** `250m` → 0.25, `'2'` → 2. */
export function cpuCores(quantity: unknown): number {
  const text = String(quantity);
  return text.endsWith('m') ? Number(text.slice(0, -1)) / 1000 : Number(text);
}

/** Each service's and the gateway's CPU request, limit and HPA settings, as the chart renders them. */
export function podSettings(values: Values): Record<string, PodSettings> {
  const get = (o: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), o);
  const defaults = get(values, 'defaults');
  const settingsOf = (component: unknown): PodSettings => {
    const merged = mergeValues(isObject(defaults) ? defaults : {}, isObject(component) ? component : {});
    return {
      cpuRequest: cpuCores(get(merged, 'resources', 'requests', 'cpu')),
      cpuLimit: cpuCores(get(merged, 'resources', 'limits', 'cpu')),
      minReplicas: Number(get(merged, 'autoscaling', 'minReplicas')),
      maxReplicas: Number(get(merged, 'autoscaling', 'maxReplicas')),
      target: Number(get(merged, 'autoscaling', 'targetCPUUtilizationPercentage')) / 100,
    };
  };
  const out: Record<string, PodSettings> = { gateway: settingsOf(get(values, 'gateway')) };
  const services = get(values, 'services');
  for (const name of Object.keys(isObject(services) ? services : {})) out[name] = settingsOf(get(services, name));
  return out;
}

/* ------------------------------------------------------------------------------ the model */

/** The processes of the stack that are not the portal's own: the store, the bench, the whole machine. */
const STORE_PROCESSES = ['ferretdb', 'postgresql', 'postgresql (this run’s database)'];
const NOT_APP = new Set([...STORE_PROCESSES, 'load generator', 'machine', 'floor server']);
/** `content#2` (a second replica) counts as `content`. */
const serviceOf = (processName: string) => processName.replace(/[#-]\d+$/, '');

/** Which service's database a route's store operations go to (the route tables' prefixes). */
const ROUTE_SERVICE: Array<[RegExp, string]> = [
  [/ \/(api\/auth|api\/users|api\/directory|api\/staff|internal\/users|internal\/principals)/, 'auth'],
  [
    / \/(api\/attempts|api\/progress|api\/results|api\/reviews|api\/assignments|api\/programs|api\/certificates|api\/scorm\/attempts|api\/notifications|internal\/progress)/,
    'progress',
  ],
  [/ \/(api\/organizations|api\/contacts|api\/crm)/, 'crm'],
  [/ \/(api\/audit|internal\/audit)/, 'audit'],
  [/ \/(api|internal)\//, 'content'],
];
export const routeService = (route: string) => ROUTE_SERVICE.find(([re]) => re.test(route))?.[1] ?? 'content';

/** The run the model is built on: PostgreSQL with one replica if measured, else the first run. */
export function referenceRun(costs: CapacityCosts): CostsRun {
  const run = costs.runs.find((r) => r.store === 'postgresql' && r.replicas === 1) ?? costs.runs[0];
  if (!run) throw new Error('the costs hold no mixed-load run: run `npm run bench -- capacity mixed postgresql` first');
  return run;
}

/** CPU ms per answered request of each of the portal's services (replicas summed), from one run. */
export function serviceCpu(run: CostsRun): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, ms] of Object.entries(run.cpuMsPerRequest))
    if (!NOT_APP.has(name)) out[serviceOf(name)] = (out[serviceOf(name)] ?? 0) + ms;
  return out;
}

/** The store's CPU per request: FerretDB and the run's own PostgreSQL backends (all PostgreSQL when those were not told apart). */
export function storeCpu(run: CostsRun): number {
  const own = run.cpuMsPerRequest['postgresql (this run’s database)'];
  return (run.cpuMsPerRequest.ferretdb ?? 0) + (own || (run.cpuMsPerRequest.postgresql ?? 0));
}

/** Every process the run is made of (portal, store, load generator): what it cost the machine per answered request. */
export const runCpu = (run: CostsRun) =>
  Object.values(serviceCpu(run)).reduce((a, b) => a + b, 0) + storeCpu(run) + (run.cpuMsPerRequest['load generator'] ?? 0);
/** Real (not deliberately bad) requests answered in a run, and answered per real one. */
export const realCount = (run: CostsRun) => run.realPerSecond * run.seconds;
export const realFactor = (run: CostsRun) => run.answered / Math.max(realCount(run), 1);

const QUIZ_ROUTES =
  /^(POST \/api\/attempts|POST \/api\/attempts\/:id\/submit|GET \/api\/attempts\/quiz\/:id|PUT \/api\/attempts\/:id\/answers)$/;

export interface ServiceSizing {
  service: string;
  cpuMs: number;
  cores: number;
  /** Pods of the assumed size at its HPA target. */
  pods: number;
  chart?: PodSettings;
  /** With the chart's own request and target: the pods the HPA asks for, and whether maxReplicas allows them. */
  chartPods?: number;
  chartFits?: boolean;
  /** Cores each pod uses once the HPA stops at maxReplicas. */
  chartPerPodAtMax?: number;
}

export interface PopulationModel {
  employees: number;
  active: number;
  stormLearners: number;
  portalRps: number;
  stormRps: number;
  rps: number;
  writesRps: number;
  services: ServiceSizing[];
  appCores: number;
  storeOpsRps: number;
  storeOpsByDatabase: Record<string, number>;
  shardVerdict: 'one replica set' | 'a replica set per database' | 'shard';
  shardDatabases: string[];
  redisOpsRps: number;
  redisCores: number;
  redisMemoryMiB: number;
  objectStorageGiB: { scorm: number; uploads: number; answersPerYear: number; total: number };
  cdn: { pageLoadsPerSecond: number; peakMbitPerSecond: number; gibPerPeakHour: number };
}

export interface CapacityModel {
  costs: CapacityCosts;
  run: CostsRun;
  chart: Record<string, PodSettings>;
  /** Store operations per answered request (service routes, internal calls included) and per storm request. */
  opsPerRequest: number;
  stormOpsPerRequest: number;
  /** Requests the services answered per request the gateway answered (internal calls make it above 1). */
  serviceRequestsPerRequest: number;
  /** The measured store operations' share by database. */
  databaseShare: Record<string, number>;
  frontEnd: { firstVisitBytes: number; cachedVisitBytes: number; remotes: string[] } | null;
  populations: PopulationModel[];
  checks: {
    replicas: Array<{
      store: string;
      replicas: number;
      measuredRps: number;
      predictedRps: number;
      error: number;
      /** Cores the run's processes got. */
      cores: number;
      /** CPU ms per real request of every process of the run, and of the reference run. */
      cpuMs: number;
      referenceCpuMs: number;
    }>;
    floor: Array<{
      store: string;
      floorRps: number;
      portalRealRps: number;
      ratio: number;
      storeOpsRps: number;
      opsShare: number;
    }>;
    otherLoad: Array<{ store: string; replicas: number; ours: number; machine: number }>;
  };
}

const perMinuteTotal = () => REQUESTS_PER_ACTIVE_MINUTE.reduce((sum, k) => sum + k.perMinute, 0);
const writesPerMinute = () => REQUESTS_PER_ACTIVE_MINUTE.filter((k) => k.writes).reduce((sum, k) => sum + k.perMinute, 0);

/** The whole model: measured costs and the chart in, a sizing for each population and the checks out. Pure. */
export function capacityModel(
  costs: CapacityCosts,
  chart: Record<string, PodSettings>,
  populations = POPULATIONS,
): CapacityModel {
  const run = referenceRun(costs);
  // The model counts real requests: the deliberately bad ones' CPU and operations are charged to them (conservative).
  const toReal = realFactor(run);
  const cpu = Object.fromEntries(Object.entries(serviceCpu(run)).map(([name, ms]) => [name, ms * toReal]));
  const routeOps = run.routes.reduce((sum, r) => sum + r.operations, 0);
  const opsPerRequest = routeOps / Math.max(realCount(run), 1);
  const quiz = run.routes.filter((r) => QUIZ_ROUTES.test(r.route));
  const quizRequests = quiz.reduce((sum, r) => sum + r.requests, 0);
  // A quiz call's own operations, plus the internal calls it makes (their share of the mean).
  const stormOpsPerRequest = quizRequests ? quiz.reduce((sum, r) => sum + r.operations, 0) / quizRequests : opsPerRequest;
  const serviceRequestsPerRequest = run.routes.reduce((sum, r) => sum + r.requests, 0) / Math.max(realCount(run), 1);
  const databaseShare: Record<string, number> = {};
  for (const r of run.routes)
    databaseShare[routeService(r.route)] = (databaseShare[routeService(r.route)] ?? 0) + r.operations / Math.max(routeOps, 1);

  const sizes = new Map(costs.frontEnd.map((row) => [row.what, row.bytes]));
  const shell = costs.frontEnd.find((row) => row.what.startsWith('shell'))?.bytes;
  const remotes = LEARNER_REMOTES.filter((r) => sizes.has(`${r}/remoteEntry.js`));
  const frontEnd =
    shell === undefined
      ? null
      : {
          firstVisitBytes:
            shell +
            remotes.reduce(
              (sum, r) =>
                sum + (sizes.get(`${r}/remoteEntry.js`) ?? 0) + (sizes.get(`${r}: exposed lifecycles + sync chunks`) ?? 0),
              0,
            ),
          // Hashed chunks come from the cache; each remoteEntry.js (a fixed name) is fetched again.
          cachedVisitBytes: remotes.reduce((sum, r) => sum + (sizes.get(`${r}/remoteEntry.js`) ?? 0), 0),
          remotes,
        };

  const I = INFRASTRUCTURE;
  const sized = populations.map((employees): PopulationModel => {
    const active = employees * ACTIVITY.peakActiveShare.value;
    const stormLearners = (employees / 1000) * ACTIVITY.stormsPer1000.value * ACTIVITY.stormGroup.value;
    const portalRps = (active * perMinuteTotal()) / 60;
    const stormRps = (stormLearners * STORM_REQUESTS_PER_LEARNER_MINUTE) / 60;
    const rps = portalRps + stormRps;
    // Every storm call writes (a start, an answer, a submit).
    const writesRps = (active * writesPerMinute()) / 60 + stormRps;
    const services = Object.entries(cpu)
      .sort((a, b) => b[1] - a[1])
      .map(([service, cpuMs]): ServiceSizing => {
        const cores = (rps * cpuMs) / 1000;
        const settings = chart[service];
        const pods = Math.max(settings?.minReplicas ?? 1, Math.ceil(cores / (I.podCpu.value * I.hpaTarget.value)));
        if (!settings) return { service, cpuMs, cores, pods };
        const chartPods = Math.max(settings.minReplicas, Math.ceil(cores / (settings.cpuRequest * settings.target)));
        return {
          service,
          cpuMs,
          cores,
          pods,
          chart: settings,
          chartPods,
          chartFits: chartPods <= settings.maxReplicas,
          chartPerPodAtMax: cores / settings.maxReplicas,
        };
      });
    const storeOpsRps = portalRps * opsPerRequest + stormRps * stormOpsPerRequest;
    const storeOpsByDatabase: Record<string, number> = {};
    for (const [db, share] of Object.entries(databaseShare)) storeOpsByDatabase[db] = portalRps * opsPerRequest * share;
    storeOpsByDatabase.progress = (storeOpsByDatabase.progress ?? 0) + stormRps * stormOpsPerRequest;
    const limit = I.mongoPrimaryOps.value * I.shardAt.value;
    const shardDatabases = Object.entries(storeOpsByDatabase)
      .filter(([, ops]) => ops > limit)
      .map(([db]) => db);
    const shardVerdict =
      storeOpsRps <= limit ? 'one replica set' : shardDatabases.length ? 'shard' : 'a replica set per database';
    const redisOpsRps = rps * serviceRequestsPerRequest + writesRps * 3;
    const redisMemoryMiB = (writesRps * 60 * I.auditBacklogMinutes.value * I.auditEventBytes.value) / 2 ** 20;
    const courses = (employees / 1000) * I.coursesPer1000.value;
    const scorm = (courses * I.scormShare.value * I.scormMiB.value) / 1024;
    const uploads = (courses * I.uploadsMiBPerCourse.value) / 1024;
    const answersPerYear = (employees * I.answerFilesMiB.value) / 1024;
    const pageLoadsPerSecond = (active * I.sessionsPerActiveHour.value) / 3600;
    const bytesPerLoad = frontEnd
      ? I.firstVisitShare.value * frontEnd.firstVisitBytes + (1 - I.firstVisitShare.value) * frontEnd.cachedVisitBytes
      : 0;
    return {
      employees,
      active,
      stormLearners,
      portalRps,
      stormRps,
      rps,
      writesRps,
      services,
      appCores: services.reduce((sum, s) => sum + s.cores, 0),
      storeOpsRps,
      storeOpsByDatabase,
      shardVerdict,
      shardDatabases,
      redisOpsRps,
      redisCores: redisOpsRps / I.redisOpsPerCore.value,
      redisMemoryMiB,
      objectStorageGiB: { scorm, uploads, answersPerYear, total: scorm + uploads + answersPerYear },
      cdn: {
        pageLoadsPerSecond,
        peakMbitPerSecond: (pageLoadsPerSecond * bytesPerLoad * 8) / 1e6,
        gibPerPeakHour: (pageLoadsPerSecond * 3600 * bytesPerLoad) / 2 ** 30,
      },
    };
  });

  // The model's claim: a request costs the same CPU whatever the number of replicas. Given the CPU the
  // stack got in another run, the reference costs predict its throughput.
  const replicas = costs.runs
    .filter((r) => r !== run && r.store === run.store)
    .map((r) => {
      const cores = (runCpu(r) * r.answeredPerSecond) / 1000;
      const predictedRps = (cores * 1000) / (runCpu(run) * realFactor(run));
      return {
        store: r.store,
        replicas: r.replicas,
        measuredRps: r.realPerSecond,
        predictedRps,
        error: r.realPerSecond / predictedRps - 1,
        cores,
        cpuMs: runCpu(r) * realFactor(r),
        referenceCpuMs: runCpu(run) * realFactor(run),
      };
    });
  const floor = costs.floors.flatMap((f) => {
    const portal = costs.runs.find((r) => r.store === f.store && r.replicas === 1);
    if (!portal) return [];
    const storeOpsRps = portal.storeOperations / portal.seconds;
    return [
      {
        store: f.store,
        floorRps: f.answeredPerSecond,
        portalRealRps: portal.realPerSecond,
        ratio: portal.realPerSecond / f.answeredPerSecond,
        storeOpsRps,
        opsShare: storeOpsRps / f.answeredPerSecond,
      },
    ];
  });
  const otherLoad = costs.runs.map((r) => ({
    store: r.store,
    replicas: r.replicas,
    ours: runCpu(r),
    machine: r.cpuMsPerRequest.machine ?? NaN,
  }));
  return {
    costs,
    run,
    chart,
    opsPerRequest,
    stormOpsPerRequest,
    serviceRequestsPerRequest,
    databaseShare,
    frontEnd,
    populations: sized,
    checks: { replicas, floor, otherLoad },
  };
}

/* ------------------------------------------------------------------------------ the document */

/** 12345.6 → `12,346`; digits after the point when asked. Locale-free, so the document is the same on every host. */
export function num(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return '—';
  const [whole, fraction] = Math.abs(n).toFixed(digits).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${n < 0 && Number(Math.abs(n).toFixed(digits)) !== 0 ? '−' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}
/** Two significant digits at most below 10, whole numbers above: a model's precision. */
const approx = (n: number) => (n >= 100 ? num(n) : n >= 10 ? num(n, 0) : n >= 1 ? num(n, 1) : num(n, 2));
/** Two significant digits: 253,792 → 250,000. */
const sig2 = (n: number) => {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return num(Math.round(n / unit) * unit);
};
const pct = (share: number) => `${num(share * 100, 0)}%`;
const kib = (bytes: number) => `${num(bytes / 1024, 1)} KiB`;
const people = (n: number) => (n >= 1_000_000 ? `${num(n / 1_000_000)}M` : n >= 1000 ? `${num(n / 1000)}k` : num(n));

/** A markdown table as prettier prints it: every column padded to its widest cell. */
export function table(head: string[], rows: string[][]): string {
  const cells = [head, ...rows].map((row) => row.map((c) => c.replace(/\|/g, '\\|')));
  const widths = head.map((_, i) => Math.max(3, ...cells.map((row) => [...(row[i] ?? '')].length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c + ' '.repeat(widths[i] - [...c].length)).join(' | ')} |`;
  return [line(cells[0]), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...cells.slice(1).map(line)].join('\n');
}

const kindName = (name: string) => name.split(' (')[0];

/** docs/capacity.md: every figure from the model, the prose around them. Pure. */
export function renderCapacityDoc(model: CapacityModel): string {
  const { costs, run } = model;
  const I = INFRASTRUCTURE;
  const toReal = realFactor(run);
  const out: string[] = [];
  const say = (...lines: string[]) => out.push(...lines, '');
  const pops = model.populations;

  say(
    '# Capacity model',
    '<!-- Generated by `npm run capacity-model` (bench/src/capacityModel.ts) from bench/capacity-costs.json. Do not edit: a test compares. -->',
  );
  say(
    `How many cores, pods, store operations, Redis, object storage and CDN traffic the portal needs for ${pops.map((p) => num(p.employees)).join(', ')} employees, derived from the CPU and store operations each request cost in the bench's mixed load (\`npm run bench -- capacity mixed postgresql\`), and checked against what can be measured here. Every figure below is computed by the script from the measured costs and the chart's values; the assumptions are constants at the top of \`bench/src/capacityModel.ts\`, each with its reason, and are printed here.`,
  );
  const machineShare = 1 - runCpu(run) / (run.cpuMsPerRequest.machine ?? NaN);
  say(
    `**Measured on** ${costs.measuredAt.slice(0, 10)} (${costs.measuredAt.slice(11, 16)} UTC), ${costs.host.cpu}, ${costs.host.cores} cores, ${costs.host.memoryGiB} GiB${costs.host.note ? `: ${costs.host.note}` : ''}. Load average ${num(run.loadAverageBefore, 1)} before the mixed load and ${num(costs.host.loadAverageAtEnd, 1)} at the end; during the load the machine was busy ${num(run.cpuMsPerRequest.machine ?? NaN, 1)} ms of CPU per answered request, of which the portal, the store and the load generator used ${num(runCpu(run), 1)} ms: ${pct(machineShare)} of the busy CPU went to other work. The costs per request are what this stack's own processes used (from \`/proc\`), so they hold on a quieter host; the throughput and latencies are this loaded host's.${costs.quick ? ' **BENCH_QUICK run: it proves the run works, it measures nothing.**' : ''}`,
  );

  // --- measured
  say('## What was measured');
  say(
    `FerretDB on ${run.store === 'postgresql' ? 'PostgreSQL' : run.store}, ${run.replicas} replica of every service, the mixed load for ${num(run.seconds)} s at 50 connections: ${num(run.answeredPerSecond)} answers a second, of which ${num(run.realPerSecond)} real (the rest the deliberately bad requests, paced at 50 a second). The model counts real requests and charges the bad requests' CPU and store operations to them (${num(toReal, 2)} answers per real request), which overstates a real request's cost a little.`,
  );
  const processes = Object.entries(run.cpuMsPerRequest)
    .filter(([name]) => name !== 'machine' && !(name === 'postgresql' && run.cpuMsPerRequest['postgresql (this run’s database)']))
    .sort((a, b) => b[1] - a[1]);
  say(
    table(
      ['process', 'CPU ms per answered request', 'CPU ms per real request'],
      processes.map(([name, ms]) => [name, num(ms, 2), num(ms * toReal, 2)]),
    ),
  );
  if (run.cpuMsPerRequest['postgresql (this run’s database)'])
    say(
      `PostgreSQL is counted as the backends serving the run's own database (${num(run.cpuMsPerRequest['postgresql (this run’s database)'] * toReal, 2)} ms per real request); every PostgreSQL process on the host together used ${num((run.cpuMsPerRequest.postgresql ?? 0) * toReal, 2)} ms per real request, the rest being other users of that server.`,
    );
  say(
    table(
      ['kind of traffic', 'req/s', 'p95', 'non-2xx'],
      run.kinds.map((k) => [kindName(k.name), num(k.perSecond, 1), `${num(k.p95)} ms`, num(k.non2xx)]),
    ),
  );
  say(
    `Store operations (the services' command monitoring, internal calls included): ${num(model.opsPerRequest, 2)} per real request; the services answered ${num(model.serviceRequestsPerRequest, 2)} requests per real request at the gateway. The routes that cost the most:`,
  );
  say(
    table(
      ['route', 'requests', 'operations per request', 'database'],
      run.routes
        .slice(0, 10)
        .map((r) => [`\`${r.route}\``, num(r.requests), num(r.operations / Math.max(r.requests, 1), 2), routeService(r.route)]),
    ),
  );

  // --- activity
  say('## The activity model');
  say(
    table(
      ['assumption', 'value', 'why'],
      [
        ...Object.entries(ACTIVITY).map(assumptionRow),
        [
          'API calls per storm learner in its peak minute',
          num(STORM_REQUESTS_PER_LEARNER_MINUTE),
          'the quiz card and the start, and an answer save a minute (20 answers over 20 minutes)',
        ],
      ],
    ),
  );
  say('API calls per active person per minute, by the kinds of the mixed load:');
  say(
    table(
      ['kind', 'calls per minute', 'writes', 'why'],
      [
        ...REQUESTS_PER_ACTIVE_MINUTE.map((k) => [k.kind, num(k.perMinute, 2), k.writes ? 'yes' : 'no', k.why]),
        ['in all', num(perMinuteTotal(), 2), num(writesPerMinute(), 2), ''],
      ],
    ),
  );
  say(
    'Every kind is costed at the mix average measured above: the bench splits CPU by process, not by route, so a mix richer in quiz submits than the bench costs more than this model says. Store operations of the storm use the quiz routes’ own counts.',
  );
  say(
    table(
      ['employees', 'active at the peak', 'portal req/s', 'storm learners', 'storm req/s', 'req/s in all', 'of them writes'],
      pops.map((p) => [
        num(p.employees),
        num(p.active),
        approx(p.portalRps),
        num(p.stormLearners),
        approx(p.stormRps),
        approx(p.rps),
        approx(p.writesRps),
      ]),
    ),
  );

  // --- cores and pods
  say('## Cores and pods per service');
  say(
    `Pod size assumed: ${num(I.podCpu.value)} ${I.podCpu.unit}, as ${I.podCpu.why}; the HPA at ${pct(I.hpaTarget.value)} ${I.hpaTarget.unit}, which ${I.hpaTarget.why}. Cores are the measured CPU per real request times the peak requests, on cores like this host's; pods = cores ÷ (pod × target), at least the chart's minReplicas.`,
  );
  say(
    table(
      [
        'service',
        'CPU ms per real request',
        ...pops.flatMap((p) => [`cores, ${people(p.employees)}`, `pods, ${people(p.employees)}`]),
      ],
      [
        ...pops[0].services.map((s, i) => [
          s.service,
          num(s.cpuMs, 2),
          ...pops.flatMap((p) => [approx(p.services[i].cores), num(p.services[i].pods)]),
        ]),
        [
          'in all',
          num(
            pops[0].services.reduce((sum, s) => sum + s.cpuMs, 0),
            2,
          ),
          ...pops.flatMap((p) => [approx(p.appCores), num(p.services.reduce((sum, s) => sum + s.pods, 0))]),
        ],
      ],
    ),
  );
  const charted = pops[0].services.filter((s) => s.chart);
  say(
    'The chart as it is (`deploy/helm/portal`, values.yaml under values-production.yaml): the HPA scales on CPU used against the request, so it asks for cores ÷ (request × target) pods, up to maxReplicas. The pods it would ask for, and whether maxReplicas lets it:',
  );
  say(
    table(
      ['service', 'request', 'limit', 'target', 'replicas', ...pops.map((p) => `HPA pods, ${people(p.employees)}`)],
      charted.map((s, i) => {
        const c = s.chart!;
        return [
          s.service,
          `${num(c.cpuRequest * 1000)}m`,
          num(c.cpuLimit, 0),
          pct(c.target),
          `${num(c.minReplicas)}–${num(c.maxReplicas)}`,
          ...pops.map((p) => {
            const x = p.services.filter((t) => t.chart)[i];
            return x.chartFits
              ? num(x.chartPods!)
              : `${num(x.chartPods!)}: capped at ${num(c.maxReplicas)}, ${num(x.chartPerPodAtMax!, 2)} cores each`;
          }),
        ];
      }),
    ),
  );
  const capped = pops.filter((p) => p.services.some((s) => s.chart && !s.chartFits));
  const overLimit = pops.filter((p) => p.services.some((s) => s.chart && !s.chartFits && s.chartPerPodAtMax! > 1));
  say(
    `${
      capped.length
        ? `At ${capped.map((p) => num(p.employees)).join(' and ')} employees the chart's maxReplicas stops the HPA below what its own target asks for: the pods then run above the target, ${overLimit.length ? `and${overLimit.length === capped.length ? '' : ` at ${overLimit.map((p) => num(p.employees)).join(' and ')}`} above one core each, which a single Node process cannot use` : 'within one core each'}. `
        : 'The chart’s maxReplicas allows what its HPA targets ask for at every size. '
    }HPA settings that follow from the model: a CPU request of ${num(I.podCpu.value)} core (= the limit), target ${pct(I.hpaTarget.value)}, minReplicas 2 (one pod lost), and maxReplicas at least the pods above for the largest population served plus a third for a burst:`,
  );
  say(
    table(
      ['service', ...pops.map((p) => `maxReplicas, ${people(p.employees)}`)],
      pops[0].services.map((s, i) => [s.service, ...pops.map((p) => num(Math.max(2, Math.ceil(p.services[i].pods * (4 / 3)))))]),
    ),
  );

  // --- store
  const limit = I.mongoPrimaryOps.value * I.shardAt.value;
  const dbs = Object.keys(pops[0].storeOpsByDatabase).sort();
  say('## The store');
  say(
    `Store operations a second at the peak: the measured ${num(model.opsPerRequest, 2)} per real request (${num(model.stormOpsPerRequest, 2)} per storm call, from the quiz routes), split by database as the measured routes split them (${dbs.map((d) => `${d} ${pct(model.databaseShare[d] ?? 0)}`).join(', ')}; the storm's go to progress). A MongoDB primary is assumed to serve ${num(I.mongoPrimaryOps.value)} ${I.mongoPrimaryOps.unit}: ${I.mongoPrimaryOps.why}. A replica set is full at ${pct(I.shardAt.value)} of that, ${num(limit)} operations a second: ${I.shardAt.why}. Reads go to the primary (the services do not read from secondaries), so secondaries add no read capacity here.`,
  );
  say(
    table(
      ['employees', 'operations/s', ...dbs, 'verdict'],
      pops.map((p) => [
        num(p.employees),
        approx(p.storeOpsRps),
        ...dbs.map((d) => approx(p.storeOpsByDatabase[d] ?? 0)),
        p.shardVerdict === 'shard' ? `shard ${p.shardDatabases.join(', ')}` : p.shardVerdict,
      ]),
    ),
  );
  const firstShard = pops.find((p) => p.shardVerdict === 'shard');
  const firstSplit = pops.find((p) => p.shardVerdict !== 'one replica set');
  say(
    `${firstSplit ? `At ${num(firstSplit.employees)} employees one replica set is not enough; ${firstShard ? `there the ${firstShard.shardDatabases.join(' and ')} database${firstShard.shardDatabases.length > 1 ? 's need' : ' needs'} sharding, as one database's operations exceed a replica set's.` : 'each service’s database needs a replica set of its own (the services share none), and none needs sharding.'}` : 'One replica set serves every size modelled.'} By operations per employee, one replica set holds up to about ${sig2(limit / (pops[0].storeOpsRps / pops[0].employees))} employees, and the busiest database alone fills one at about ${sig2(limit / (Math.max(...Object.values(pops[0].storeOpsByDatabase)) / pops[0].employees))}.`,
  );
  const contentShard = pops.find((p) => p.shardDatabases.includes('content'));
  say('Shard keys, argued from the queries the code makes:');
  say(
    [
      "- **progress: `{ userId: 1 }`.** Every unique index of a learner's records begins with `userId` (completions `{ userId, lessonId }`, attempts `{ userId, quizId, attemptNumber }`, course completions `{ userId, courseId }`, certificates `{ userId, courseId, completedAt }`), so uniqueness holds within a shard, and a learner's own reads (my progress, my attempts, my notifications by `{ userId, createdAt }`) go to one shard. Two unique indexes do not begin with it and must change first: a certificate's `number` and a notification's `key` (put the user in the key, or keep those collections unsharded). Reports by course (`{ courseId, … }` indexes of SCORM attempts and assignments) become scatter-gather: they are paged and rare.",
      `- **content: reads first, then \`{ courseId: 1 }\`.** Its data grows with the catalogue, not with the employees, but its reads grow with the learners${contentShard ? ` (past a replica set at ${num(contentShard.employees)} employees)` : ''}. They are reads of published courses, which do not change between publishes: serve them from secondaries (\`readPreference: secondaryPreferred\` on the learner's reads) and from the course and lesson caches before sharding. If it must be sharded, \`{ courseId: 1 }\` (\`blocks\` are indexed \`{ courseId, type, position }\`), after the lesson read carries the course id: today it asks by \`{ moduleId, position }\` alone, which would go to every shard.`,
      '- **audit: `{ day: 1, _id: "hashed" }`.** Every history query is a period newest first (all its indexes end in `timestamp`; the day summaries are by `day`), so the day prefix keeps a period’s query on the shards holding those days, while the hashed event id spreads today’s inserts over the shards instead of the one hot shard a pure time key would make. Retention drops whole days.',
      '- **auth and crm: not sharded:** one document per person or organization, read by `_id` or a unique email.',
    ].join('\n'),
  );

  // --- Redis
  say('## Redis');
  say(
    [
      'What the services keep in Redis (read from the code):',
      '- BullMQ queues: `audit` (every audited write publishes an event; the publisher buffers and adds them in bulk; completed jobs are removed), mail, reminders, the directory sync and course generation (rare);',
      '- the principal cache’s change stamps: a `GET` per authenticated request in each service (250 ms deadline), and one pub/sub channel for evictions;',
      '- the login limiter’s counters, the OIDC sign-in state (minutes), the upload maintenance lock;',
      '- idempotency records for 24 h, only for a client that sends `Idempotency-Key` (the web front ends do not).',
    ].join('\n'),
  );
  say(
    `Commands a second = the services' requests (${num(model.serviceRequestsPerRequest, 2)} per real request, one stamp read each) + 3 per write (the event's add, its fetch and its completion). Memory = ${num(I.auditBacklogMinutes.value)} ${I.auditBacklogMinutes.unit}, as ${I.auditBacklogMinutes.why}, at ${num(I.auditEventBytes.value)} ${I.auditEventBytes.unit}; one core of Redis is taken as ${num(I.redisOpsPerCore.value)} ${I.redisOpsPerCore.unit}: ${I.redisOpsPerCore.why}.`,
  );
  say(
    table(
      ['employees', 'commands/s', 'share of one Redis core', 'memory for the backlog'],
      pops.map((p) => [num(p.employees), approx(p.redisOpsRps), pct(p.redisCores), `${approx(p.redisMemoryMiB)} MiB`]),
    ),
  );
  const redisFull = pops.find((p) => p.redisCores > 0.5);
  say(
    redisFull
      ? `At ${num(redisFull.employees)} employees one Redis passes half a core: run the queues on a Redis of their own apart from the stamps, or a Redis cluster with the queue names hashed apart.`
      : 'One Redis (primary and replica) serves every size modelled, with room to spare.',
  );

  // --- object storage
  say('## Object storage');
  say(
    table(
      ['assumption', 'value', 'why'],
      (['answerFilesMiB', 'uploadsMiBPerCourse', 'scormMiB', 'coursesPer1000', 'scormShare'] as const).map((key) =>
        assumptionRow([key, I[key]]),
      ),
    ),
  );
  say(
    table(
      ['employees', 'courses', 'SCORM packages', 'lesson uploads', 'answer files a year', 'after one year'],
      pops.map((p) => [
        num(p.employees),
        num((p.employees / 1000) * I.coursesPer1000.value),
        `${approx(p.objectStorageGiB.scorm)} GiB`,
        `${approx(p.objectStorageGiB.uploads)} GiB`,
        `${approx(p.objectStorageGiB.answersPerYear)} GiB`,
        `${approx(p.objectStorageGiB.total)} GiB`,
      ]),
    ),
  );
  say(
    `GridFS keeps these bytes in MongoDB, where they take the replica set’s disk and compete for its cache; the chart’s \`storage.backend: s3\` moves them to object storage. Even at ${num(pops[0].employees)} employees a year of files is ${approx(pops[0].objectStorageGiB.total)} GiB: use S3 at every size modelled.`,
  );

  // --- CDN
  say('## The CDN for the front ends');
  if (!model.frontEnd) say('The front ends were not built when the costs were measured: no sizes.');
  else {
    say(
      `Sizes from the build measured with the costs (gzip -9, \`bench/src/sizes.ts\`): a learner's first visit loads the shell and ${model.frontEnd.remotes.join(', ')} (each remoteEntry and its exposed module with its chunks): ${kib(model.frontEnd.firstVisitBytes)}; a cached visit fetches again only each remoteEntry.js (its name has no hash): ${kib(model.frontEnd.cachedVisitBytes)}. Page loads: ${num(I.sessionsPerActiveHour.value)} per active person an hour (${I.sessionsPerActiveHour.why}); ${pct(I.firstVisitShare.value)} of them first visits (${I.firstVisitShare.why}).`,
    );
    say(
      table(
        ['employees', 'page loads/s at the peak', 'CDN egress at the peak', 'per peak hour'],
        pops.map((p) => [
          num(p.employees),
          approx(p.cdn.pageLoadsPerSecond),
          `${approx(p.cdn.peakMbitPerSecond)} Mbit/s`,
          `${approx(p.cdn.gibPerPeakHour)} GiB`,
        ]),
      ),
    );
  }

  // --- checks
  say('## Checked against measurement');
  if (!model.checks.replicas.length)
    say(
      'The replica check was not measured in this run (`BENCH_CAPACITY_REPLICAS=1,2` runs the mixed load with two replicas too).',
    );
  else {
    say(
      'The model assumes a request costs the same CPU however many replicas serve it. The bench ran the mixed load again with two replicas of every service on the same store; given the cores that run’s processes got, the reference costs predict its real requests a second:',
    );
    say(
      table(
        [
          'store',
          'replicas',
          'cores the run got',
          'predicted real req/s',
          'measured',
          'error',
          'CPU ms per real request (1 replica)',
        ],
        model.checks.replicas.map((c) => [
          c.store,
          num(c.replicas),
          num(c.cores, 2),
          num(c.predictedRps, 1),
          num(c.measuredRps, 1),
          `${c.error >= 0 ? '+' : ''}${pct(c.error)}`,
          `${num(c.cpuMs, 1)} (${num(c.referenceCpuMs, 1)})`,
        ]),
      ),
    );
    const worst = Math.max(...model.checks.replicas.map((c) => Math.abs(c.error)));
    say(
      worst <= 0.2
        ? 'Within 20%: the per-request costs carry over to more replicas, which is what the pod counts above rely on.'
        : `Off by up to ${pct(worst)}: on this host, with more processes than its ${num(costs.host.cores)} cores and other work beside them, a request cost more CPU with two replicas (each process's fixed costs, timers and garbage collection, and the switching between processes, are spread over fewer requests). The pod counts above are therefore a floor: measure again on a quiet host or on real pods before ordering machines.`,
    );
  }
  for (const f of model.checks.floor)
    say(
      `The store floor on ${f.store}: a bare Node server doing one \`findOne\` by \`_id\` per request answered ${num(f.floorRps)} req/s at 50 connections in the same run. The portal's real traffic was ${num(f.portalRealRps, 1)} req/s, ${num(f.ratio, 2)}× the floor (the budget asks ≥ 0.25×); its ${num(f.storeOpsRps)} store operations a second were ${pct(f.opsShare)} of the floor's. ${f.opsShare < 0.5 ? 'So the store was not what bounded the portal here: the CPU of the services and of FerretDB per operation was.' : 'So the store was near its floor: the operations per request are what to cut.'}`,
    );
  if (!model.checks.floor.length) say('The store floor was not measured in this run.');
  say(
    'What cannot be checked here: MongoDB itself (the store operations a second are counted the same on any server, but FerretDB costs far more CPU per operation than MongoDB, so the FerretDB cores are not a MongoDB sizing), Redis and object storage at these rates, and the CDN.',
  );
  return `${out.join('\n').trimEnd()}\n`;
}

/* ------------------------------------------------------------------------------ the command */

export const ROOT = path.resolve(__dirname, '../..');
export const COMMITTED_COSTS = path.join(ROOT, 'bench/capacity-costs.json');
export const CAPACITY_DOC = path.join(ROOT, 'docs/capacity.md');
const FRESH_COSTS = path.join(ROOT, '.data/reports/capacity-costs.json');
const CHART = path.join(ROOT, 'deploy/helm/portal');

/** The chart's production settings: values.yaml with values-production.yaml over it. */
export function readChart(): Record<string, PodSettings> {
  const read = (file: string) => parseYaml(readFileSync(path.join(CHART, file), 'utf8')) as Values;
  return podSettings(mergeValues(read('values.yaml'), read('values-production.yaml')));
}

/** The document the committed costs give. */
export function committedDoc(): string {
  const costs = JSON.parse(readFileSync(COMMITTED_COSTS, 'utf8')) as CapacityCosts;
  return renderCapacityDoc(capacityModel(costs, readChart()));
}

/**
 * `npm run capacity-model [costs.json]`: takes the costs just measured (the argument, or
 * .data/reports/capacity-costs.json when it is there) as the committed copy, then writes
 * docs/capacity.md from the committed copy. `--committed` leaves the copy as it is.
 */
function main(args: string[]) {
  const committedOnly = args.includes('--committed');
  const given = args.find((a) => !a.startsWith('--'));
  // npm runs a workspace's script in its folder; a path is meant from where the command was typed.
  const fresh = committedOnly
    ? null
    : given
      ? path.resolve(process.env.INIT_CWD ?? process.cwd(), given)
      : existsSync(FRESH_COSTS)
        ? FRESH_COSTS
        : null;
  if (fresh) {
    const costs = JSON.parse(readFileSync(fresh, 'utf8')) as CapacityCosts;
    referenceRun(costs); // refuses costs without a mixed-load run before anything is overwritten
    if (existsSync(COMMITTED_COSTS)) {
      const before = referenceRun(JSON.parse(readFileSync(COMMITTED_COSTS, 'utf8')) as CapacityCosts);
      const now = referenceRun(costs);
      console.log(
        `CPU ms per real request of the portal and store: ${num(runCpu(before) * realFactor(before), 2)} (committed) → ${num(runCpu(now) * realFactor(now), 2)}`,
      );
    }
    writeFileSync(COMMITTED_COSTS, `${JSON.stringify(costs, null, 2)}\n`);
    console.log(`${path.relative(process.cwd(), fresh)} → ${path.relative(process.cwd(), COMMITTED_COSTS)}`);
  }
  writeFileSync(CAPACITY_DOC, committedDoc());
  console.log(`written ${path.relative(process.cwd(), CAPACITY_DOC)}`);
}

if (require.main === module) main(process.argv.slice(2));
