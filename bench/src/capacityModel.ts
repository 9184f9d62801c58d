import {
  POPULATIONS,
  ACTIVITY,
  REQUESTS_PER_ACTIVE_MINUTE,
  STORM_REQUESTS_PER_LEARNER_MINUTE,
  INFRASTRUCTURE,
  LEARNER_REMOTES,
  PodSettings,
} from './capacityActivity';

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
  /** The services' commands to Redis on their request connections in the window (absent from runs before they were counted). */
  redisCommands?: number;
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
  /**
   * The services' commands to Redis per real request, measured in the mix (the stamps of who asks,
   * the kept answers' versions, the claims, the audit events' adds); null for a run from before they
   * were counted, when one stamp read per service request stands for them.
   */
  redisPerRequest: number | null;
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

export const perMinuteTotal = () => REQUESTS_PER_ACTIVE_MINUTE.reduce((sum, k) => sum + k.perMinute, 0);
export const writesPerMinute = () => REQUESTS_PER_ACTIVE_MINUTE.filter((k) => k.writes).reduce((sum, k) => sum + k.perMinute, 0);

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
  const redisPerRequest = run.redisCommands === undefined ? null : run.redisCommands / Math.max(realCount(run), 1);
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
    // The storm's requests are counted as saves, each taking the quiz path's claim in Redis (a SET and
    // its release): an upper bound, as every storm request is counted a write above. A write's audit
    // event is added on the request's connection (measured with it) and fetched and completed by the
    // audit worker (2 more); without a measurement, one stamp read per service request and 3 per write.
    const redisOpsRps =
      redisPerRequest === null
        ? rps * serviceRequestsPerRequest + writesRps * 3 + stormRps * 2
        : rps * redisPerRequest + writesRps * 2 + stormRps * 2;
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
    redisPerRequest,
    databaseShare,
    frontEnd,
    populations: sized,
    checks: { replicas, floor, otherLoad },
  };
}
