import { scormCountsAsCompleted, type ScormAttemptState, type ScormVersion } from '@portal/contracts';
import type {
  CommitMetadata,
  CrossFrameLMS as CrossFrameLMSClass,
  ResultObject,
  Scorm12API as Scorm12APIClass,
  Scorm2004API as Scorm2004APIClass,
  Settings,
} from 'scorm-again';

/**
 * The SCO's runtime API in the portal's page: scorm-again's Scorm12API or Scorm2004API, answering
 * the sandboxed frame over postMessage (its CrossFrameLMS) and committing to the progress service.
 * The frame never sees the token: only this page sends commits.
 */

type ScormApi = Scorm12APIClass | Scorm2004APIClass;

/** The learner as the SCO reads them (cmi.learner_id / cmi.core.student_id). */
export interface ScormLearner {
  id: string;
  name: string;
}

export interface ScormRuntimeOptions {
  version: ScormVersion;
  /** The attempt to resume and commit to; null in an author's preview, where nothing is sent. */
  attempt: ScormAttemptState | null;
  token: string | null;
  learner: ScormLearner | null;
  /** The SCO's window: only messages from it (or frames inside it) are answered. */
  frame: () => Window | null | undefined;
  /** The frame's origin when packages have one of their own (SCORM_ORIGIN); omitted, an opaque sandbox's `null`. */
  frameOrigin?: string;
  /** After a stored commit that leaves the SCO completed (once per runtime). */
  onCompleted?: () => void;
  /** After each stored commit: what the SCO has reported so far. */
  onReported?: (report: ScormReport) => void;
  /** A commit the server refused or that did not reach it, with a message a person can read. */
  onCommitFailed?: (message: string) => void;
}

/** What the SCO has reported: its status and score as the learner sees them beside the frame. */
export interface ScormReport {
  completed: boolean;
  success: 'passed' | 'failed' | 'unknown';
  score: { raw: number | null; max: number | null; scaled: number | null };
}

export interface ScormRuntime {
  /** `#cmi=…`: the flattened CMI the frame's bridge answers its first GetValue calls from. */
  hash: string;
  /** Sends what the SCO has set so far (the page is being hidden or left). */
  flush: () => void;
  /** Stops answering the frame. */
  destroy: () => void;
}

export const COMMIT_FAILED = 'Не удалось сохранить прохождение урока. Проверьте подключение: мы попробуем ещё раз';

export const scormCommitUrl = (attemptId: string) => `/api/scorm/attempts/${encodeURIComponent(attemptId)}/commit`;

/** Base64url of UTF-8 JSON, as the frame's bridge reads `#cmi=`. */
export function base64UrlJson(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The frame's origin when the launch address is on another origin than this page (SCORM_ORIGIN):
 * the frame then keeps same-origin rights there, and the API answers that origin only.
 */
export function packageOriginOf(url: string, pageOrigin: string): string | undefined {
  const origin = new URL(url, pageOrigin).origin;
  return origin !== pageOrigin ? origin : undefined;
}

/**
 * Whether a message came from the SCO's frame or a frame inside it (a package may run its SCO in a
 * frameset). Any other window of the page (an embedded video, another remote) is not answered.
 */
export function isFromFrame(source: MessageEventSource | null, frame: Window | null | undefined): boolean {
  if (!source || !frame) return false;
  let current = source as Window;
  for (let depth = 0; depth < 16; depth++) {
    if (current === frame) return true;
    // A cross-origin window still tells its parent; the top window is its own parent.
    const parent = (current as { parent?: Window }).parent;
    if (!parent || parent === current) return false;
    current = parent;
  }
  return false;
}

/** What CrossFrameAPI posts: anything else on the page's message channel is left alone. */
const isBridgeCall = (data: unknown): boolean =>
  typeof data === 'object' &&
  data !== null &&
  typeof (data as { messageId?: unknown }).messageId === 'string' &&
  typeof (data as { method?: unknown }).method === 'string';

/**
 * The stored CMI without what belongs to one session (exit, session time, entry): a new session's
 * entry is the attempt's, and an old exit or session time would be sent again as if set now.
 */
export function resumableCmi(stored: Record<string, unknown>): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(stored)) as Record<string, unknown>;
  const cmi = (copy.cmi ?? copy) as Record<string, unknown>;
  for (const key of ['entry', 'exit', 'session_time']) delete cmi[key];
  const core = cmi.core as Record<string, unknown> | undefined;
  if (core) for (const key of ['entry', 'exit', 'session_time']) delete core[key];
  return copy;
}

/**
 * scorm-again numbers commits from 1 in each page; the server keeps only a higher sequence than it
 * stored, so a new session's commits go on from the attempt's stored sequence.
 */
export function sequencedCommit(body: unknown, stored: number, metadata?: CommitMetadata): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const own = (body as { commitSequence?: unknown }).commitSequence;
  const sequence = metadata?.sequence ?? (typeof own === 'number' ? own : undefined);
  return sequence === undefined ? body : { ...body, commitSequence: stored + sequence };
}

/** The server's `{result, errorCode}`, or a refusal's `{message}` kept for the page to show. */
export async function readCommitAnswer(response: Response): Promise<ResultObject & { errorMessage?: string }> {
  const text = await response.text().catch(() => '');
  let body: { result?: unknown; errorCode?: unknown; message?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // An answer that is not JSON (a proxy's page) counts as a failure below.
  }
  if (response.ok && (body.result === true || body.result === 'true')) {
    return { result: true, errorCode: typeof body.errorCode === 'number' ? body.errorCode : 0 };
  }
  return {
    result: false,
    errorCode: typeof body.errorCode === 'number' && body.errorCode !== 0 ? body.errorCode : 101,
    errorMessage: typeof body.message === 'string' && body.message ? body.message : COMMIT_FAILED,
  };
}

const numberOrNull = (value: string | undefined): number | null => {
  if (value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};
const successOf = (value: string): ScormReport['success'] => (value === 'passed' || value === 'failed' ? value : 'unknown');

/** The status and score the SCO has set, by version. */
export function reportOf(api: ScormApi, version: ScormVersion): ScormReport {
  if (version === '1.2') {
    const core = (api as Scorm12APIClass).cmi.core;
    const status = core.lesson_status;
    return {
      completed: scormCountsAsCompleted(status, successOf(status)),
      success: successOf(status),
      score: { raw: numberOrNull(core.score.raw), max: numberOrNull(core.score.max), scaled: null },
    };
  }
  const cmi = (api as Scorm2004APIClass).cmi;
  return {
    completed: scormCountsAsCompleted(cmi.completion_status, cmi.success_status),
    success: successOf(cmi.success_status),
    score: { raw: numberOrNull(cmi.score.raw), max: numberOrNull(cmi.score.max), scaled: numberOrNull(cmi.score.scaled) },
  };
}

// The library's subpath builds export the classes by name (ESM) or as a property of the module
// (the browser build run as CommonJS in tests); its typings declare a default export instead.
const loadScorm12 = async () =>
  ((await import('scorm-again/scorm12')) as unknown as { Scorm12API: typeof Scorm12APIClass }).Scorm12API;
const loadScorm2004 = async () =>
  ((await import('scorm-again/scorm2004')) as unknown as { Scorm2004API: typeof Scorm2004APIClass }).Scorm2004API;
const loadCrossFrameLms = async () =>
  ((await import('scorm-again/cross-frame-lms')) as unknown as { CrossFrameLMS: typeof CrossFrameLMSClass }).CrossFrameLMS;
const loadApi = (version: ScormVersion) => (version === '1.2' ? loadScorm12() : loadScorm2004());

/**
 * Asks for scorm-again's chunks of the block's version without waiting for them, so that they come
 * beside the attempt rather than after it (a launch waited about 55 ms for them); createScormRuntime
 * then takes the same modules. A failure here is left for createScormRuntime to report.
 */
export function preloadScormRuntime(version: ScormVersion | undefined): void {
  const loads = [loadCrossFrameLms(), ...(version ? [loadApi(version)] : [])];
  for (const load of loads) load.catch(() => undefined);
}

/** Loads scorm-again (a chunk of its own), sets the attempt up and starts answering the frame. */
export async function createScormRuntime(options: ScormRuntimeOptions): Promise<ScormRuntime> {
  const { version, attempt, token, learner } = options;
  const [Api, CrossFrameLMS] = await Promise.all([loadApi(version), loadCrossFrameLms()]);
  let lastRefusal = COMMIT_FAILED;
  const stored = attempt?.sequence ?? 0;
  const settings: Settings = {
    logLevel: 4,
    ...(attempt
      ? {
          lmsCommitUrl: scormCommitUrl(attempt.id),
          xhrHeaders: token ? { Authorization: `Bearer ${token}` } : {},
          // Commits go by fetch (keepalive), so the final one carries the token too; the SCO's
          // answers come from the bridge's cache anyway, so nothing waits on them.
          useAsynchronousCommits: true,
          asyncModeBeaconBehavior: 'never',
          renderCommonCommitFields: true,
          includeCommitSequence: true,
          alwaysSendTotalTime: true,
          autocommit: true,
          autocommitSeconds: 30,
          terminateCommitParam: 'final',
          requestHandler: (body: unknown, metadata?: CommitMetadata) => sequencedCommit(body, stored, metadata),
          responseHandler: async (response: Response) => {
            const answer = await readCommitAnswer(response);
            if (answer.errorMessage) lastRefusal = answer.errorMessage;
            return answer;
          },
        }
      : { lmsCommitUrl: false }),
  };
  const api: ScormApi = new Api(settings);

  if (attempt?.cmi) api.loadFromJSON(resumableCmi(attempt.cmi));
  const entry = attempt?.entry ?? 'ab-initio';
  if (version === '2004') {
    const cmi = (api as Scorm2004APIClass).cmi;
    cmi.entry = entry;
    if (learner) {
      cmi.learner_id = learner.id;
      cmi.learner_name = learner.name;
    }
  } else {
    const core = (api as Scorm12APIClass).cmi.core;
    core.entry = entry;
    if (learner) {
      core.student_id = learner.id;
      core.student_name = learner.name;
    }
  }

  let completed = false;
  api.on('CommitSuccess', () => {
    const report = reportOf(api, version);
    options.onReported?.(report);
    if (!completed && report.completed) {
      completed = true;
      options.onCompleted?.();
    }
  });
  api.on('CommitError', () => options.onCommitFailed?.(lastRefusal));

  // Registered before the LMS's own listener, so a message of another window never reaches it.
  const gate = (event: MessageEvent) => {
    if (isBridgeCall(event.data) && !isFromFrame(event.source, options.frame())) event.stopImmediatePropagation();
  };
  window.addEventListener('message', gate, true);
  // A frame of an opaque sandbox has no origin to name: '*', with the source checked above instead.
  const lms = new CrossFrameLMS(api, options.frameOrigin ?? '*');

  const hash = `#cmi=${base64UrlJson(api.getFlattenedCMI())}`;
  return {
    hash,
    flush: () => {
      if (attempt && api.isInitialized() && !api.isTerminated()) api.lmsCommit('');
    },
    destroy: () => {
      lms.destroy();
      window.removeEventListener('message', gate, true);
      api.clearScheduledCommit();
    },
  };
}
