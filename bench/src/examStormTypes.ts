/* The exam storm's options, results and targets, shared by the storm and its bench part. */

/** The budgets of BUDGETS.md's exam storm row, in ms. */
export const EXAM_STORM_TARGETS = { startP95: 1000, saveP95: 300, submitP95: 1000, errors: 0, lost: 0 } as const;

/** A request the player would make to save the answers given so far (`:id` is the attempt's). */
export interface AnswerSaveRoute {
  method: 'PUT' | 'PATCH' | 'POST';
  path: string;
}

/**
 * Read just before the first start and just after the last submit; gives a line of the report (the
 * bench's CPU split and store operations per request). `requests` is how many were answered between.
 */
export type StormProbe = () => Promise<(requests: number) => Promise<string>>;

export interface ExamStormOptions {
  gatewayUrl: string;
  learners: number;
  /** Staff who builds the course and assigns it: a token, or the preset administrator's sign-in. */
  adminToken?: string;
  /** Fixes the start and submit times and each learner's answers. */
  seed?: number;
  /** All start within this many seconds (default 60; 15 with BENCH_QUICK=1). */
  startSpreadSeconds?: number;
  /** Seconds from the storm's beginning to its submits' window (default `examAttemptSeconds()`: 18 minutes of the quiz's 20; 45 quick). */
  attemptSeconds?: number;
  /** All submit within this many seconds at the end (default 60; 15 quick). */
  submitSpreadSeconds?: number;
  /** The route the player saves answers to during the attempt (its own by default; null: none). */
  answerSave?: AnswerSaveRoute | null;
  probes?: Record<string, StormProbe>;
  /**
   * Waits, before the storm, until the arrangement's background work has ended (the «назначен»
   * notifications, the audit trail's writes), so none runs beside what is measured (default true).
   * A journey that needs the storm only as a load around it passes false: 7 s or more of waiting.
   */
  settle?: boolean;
  log?: (line: string) => void;
}

export interface Timing {
  count: number;
  /** Of `count`, the requests that failed (their time counts in the percentiles too). */
  failed: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface ExamStormResult {
  learners: number;
  questions: number;
  /** Seconds spent registering, assigning and building the quiz (not timed). */
  arrangeSeconds: number;
  /** Seconds from the first start to the last submit's answer. */
  stormSeconds: number;
  windows: { startSpread: number; attempt: number; submitSpread: number };
  /** The quiz card the lesson shows just before the start (GET /api/attempts/quiz/{id}). */
  card: Timing;
  start: Timing;
  /** null: the player saves no answer on the server (nothing to time). */
  save: Timing | null;
  saveRoute: string | null;
  submit: Timing;
  /** Every failed request by `<route> <status> <message>` (status 0: no answer, with the cause). */
  errors: Record<string, number>;
  errorCount: number;
  requests: number;
  /** Learners who never got an attempt, and who never got one graded (after the player's retries). */
  notStarted: number;
  notGraded: number;
  /** Answers a learner sent that the graded attempt, read back, does not hold as sent. */
  /** `heldSaved`: answers of attempts still open, held among their saved answers (graded when their time runs out). */
  lost: { answers: number; sent: number; inUngraded: number; heldSaved: number; examples: string[] };
  /** Each probe's line (the CPU split, store operations per request). */
  probes: Record<string, string>;
}
