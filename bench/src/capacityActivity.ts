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
export const ASSUMPTION_NAMES: Record<string, string> = {
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
export const LEARNER_REMOTES = ['mf-landing', 'mf-courses', 'mf-player', 'mf-dashboard'];

/* ------------------------------------------------------------------------------ the chart */

export interface PodSettings {
  cpuRequest: number;
  cpuLimit: number;
  minReplicas: number;
  maxReplicas: number;
  target: number;
}

export type Values = Record<string, unknown>;
export const isObject = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

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

/** 12345.6 → `12,346`; digits after the point when asked. Locale-free, so the document is the same on every host. */
export function num(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return '—';
  const [whole, fraction] = Math.abs(n).toFixed(digits).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${n < 0 && Number(Math.abs(n).toFixed(digits)) !== 0 ? '−' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}
