import { AUTOSAVE_ERROR_MS, AUTOSAVE_TIMING, EDITOR_MSG, type AutosaveTiming } from '@portal/contracts';

/** Idle, saving, saved (with the time of the last save), error. */
export type AutosaveStatus =
  { state: 'idle' } | { state: 'saving' } | { state: 'saved'; savedAt: number } | { state: 'error'; message: string };

type Timer = ReturnType<typeof setTimeout>;

export interface AutosaverOptions<T> {
  /** Writes a document; its answer goes to `confirm`. */
  save: (doc: T) => Promise<unknown>;
  timing?: AutosaveTiming;
  /** How long the error status stays before the indicator returns to idle. */
  errorMs?: number;
  /** A reason the document cannot be saved at all (the editor's save guards), or null. Not retried. */
  guard?: (doc: T) => string | null;
  /** A reason the server's answer is not a confirmation, or null. Retried like any failure. */
  confirm?: (answer: unknown) => string | null;
  /** A failure that trying again cannot mend (another author saved first: 412): shown at once, not retried. */
  isFinal?: (err: unknown) => boolean;
  equals?: (a: T, b: T) => boolean;
  now?: () => number;
}

const sameJson = <T>(a: T, b: T) => a === b || JSON.stringify(a) === JSON.stringify(b);
const messageOf = (err: unknown) => (err instanceof Error && err.message ? err.message : EDITOR_MSG.noAnswer);

/**
 * The autosave state machine, free of any framework so that tests can
 * drive it with fake timers.
 *
 * - A change (re)starts a quiet period of `delay`; only the last of quick changes is saved.
 * - One save at a time: a save asked for while another is under way runs when it ends, with the
 *   newest document, so an older document never lands after a newer one.
 * - A failed save is tried again `retries` times, `retryDelay` apart, each time with the newest
 *   document; then the status is error, and idle again after `errorMs`.
 * - A document equal to the last saved one is not saved (so the first render saves nothing).
 * - saveNow() (the 'Повторить' button) saves at once.
 */
export class Autosaver<T> {
  private status: AutosaveStatus = { state: 'idle' };
  private latest: T;
  private saved: T;
  private readonly timing: AutosaveTiming;
  private readonly errorMs: number;
  private readonly equals: (a: T, b: T) => boolean;
  private readonly now: () => number;
  private debounceTimer: Timer | null = null;
  private retryTimer: Timer | null = null;
  private errorTimer: Timer | null = null;
  private inFlight: Promise<void> | null = null;
  private rerun = false;
  private failures = 0;
  private disposed = false;
  private readonly listeners = new Set<() => void>();
  private readonly settledWaiters = new Set<() => void>();

  constructor(
    initial: T,
    private readonly options: AutosaverOptions<T>,
  ) {
    this.latest = initial;
    this.saved = initial;
    this.timing = options.timing ?? AUTOSAVE_TIMING.default;
    this.errorMs = options.errorMs ?? AUTOSAVE_ERROR_MS;
    this.equals = options.equals ?? sameJson;
    this.now = options.now ?? Date.now;
  }

  getStatus = (): AutosaveStatus => this.status;
  getLatest = (): T => this.latest;
  /** Something newer than the last successful save exists. */
  isDirty = (): boolean => !this.equals(this.latest, this.saved);
  /** A save is waiting, under way or about to be retried. */
  isPending = (): boolean => this.inFlight !== null || this.debounceTimer !== null || this.retryTimer !== null;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** A new version of the document: saved after the quiet period unless another change follows. */
  change(doc: T): void {
    if (this.disposed) return;
    this.latest = doc;
    this.clear('debounceTimer');
    if (!this.isDirty()) {
      // Back to what is stored: nothing to write, and a retry already waiting is not needed either.
      if (this.retryTimer !== null) {
        this.clear('retryTimer');
        this.failures = 0;
        this.setStatus({ state: 'idle' });
      }
      this.settle();
      return;
    }
    // A new change starts a new round of attempts.
    this.clear('retryTimer');
    this.failures = 0;
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = null;
      this.run();
    }, this.timing.delay);
  }

  /** Saves at once (the 'Повторить' button, leaving the editor). */
  saveNow(): void {
    if (this.disposed) return;
    this.clear('debounceTimer');
    this.clear('retryTimer');
    this.failures = 0;
    this.run();
  }

  /** Saves at once and resolves when nothing is waiting any more (saved, failed or nothing to do). */
  flush(): Promise<void> {
    this.saveNow();
    if (!this.isPending()) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.add(resolve));
  }

  /** Takes a document as already stored (e.g. after the server answered with it). */
  markSaved(doc: T): void {
    this.saved = doc;
    if (this.equals(this.latest, doc)) this.clear('debounceTimer');
  }

  dispose(): void {
    this.disposed = true;
    this.clear('debounceTimer');
    this.clear('retryTimer');
    this.clear('errorTimer');
    this.listeners.clear();
    this.settle();
  }

  private clear(name: 'debounceTimer' | 'retryTimer' | 'errorTimer') {
    const timer = this[name];
    if (timer !== null) clearTimeout(timer);
    this[name] = null;
  }

  private setStatus(status: AutosaveStatus) {
    this.status = status;
    this.listeners.forEach((listener) => listener());
  }

  private settle() {
    if (this.isPending()) return;
    const waiters = [...this.settledWaiters];
    this.settledWaiters.clear();
    waiters.forEach((resolve) => resolve());
  }

  private showError(message: string) {
    this.clear('errorTimer');
    this.setStatus({ state: 'error', message });
    this.errorTimer = setTimeout(() => {
      this.errorTimer = null;
      this.setStatus({ state: 'idle' });
    }, this.errorMs);
  }

  private run(): void {
    if (this.disposed) return;
    if (this.inFlight) {
      this.rerun = true;
      return;
    }
    if (!this.isDirty()) {
      this.settle();
      return;
    }
    const doc = this.latest;
    const refusal = this.options.guard?.(doc) ?? null;
    if (refusal) {
      this.failures = 0;
      this.showError(refusal);
      this.settle();
      return;
    }
    this.clear('errorTimer');
    this.setStatus({ state: 'saving' });
    this.inFlight = this.attempt(doc).then((succeeded) => {
      this.inFlight = null;
      // Asked for during the save, or changed meanwhile with no quiet period left to wait for.
      const again = this.rerun || (succeeded && this.isDirty() && this.debounceTimer === null);
      this.rerun = false;
      if (again && this.retryTimer === null && !this.disposed) this.run();
      else this.settle();
    });
  }

  /** One write; answers whether it was confirmed. Never throws. */
  private async attempt(doc: T): Promise<boolean> {
    try {
      const answer = await this.options.save(doc);
      const refusal = answer ? (this.options.confirm?.(answer) ?? null) : EDITOR_MSG.noAnswer;
      if (refusal) throw new Error(refusal);
      if (this.disposed) return true;
      this.saved = doc;
      this.failures = 0;
      this.setStatus({ state: 'saved', savedAt: this.now() });
      return true;
    } catch (err) {
      if (this.disposed) return false;
      if (this.failures < this.timing.retries && !this.options.isFinal?.(err)) {
        this.failures++;
        // Status stays 'saving' through the retries.
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          this.run();
        }, this.timing.retryDelay);
      } else {
        this.failures = 0;
        this.showError(messageOf(err));
      }
      return false;
    }
  }
}

/** One indicator for several documents: an error first (it needs the person), then saving, then the latest save. */
export function combineStatuses(statuses: AutosaveStatus[]): AutosaveStatus {
  const error = statuses.find((s) => s.state === 'error');
  if (error) return error;
  if (statuses.some((s) => s.state === 'saving')) return { state: 'saving' };
  const saved = statuses.filter((s): s is Extract<AutosaveStatus, { state: 'saved' }> => s.state === 'saved');
  if (saved.length) return { state: 'saved', savedAt: Math.max(...saved.map((s) => s.savedAt)) };
  return { state: 'idle' };
}
