/** What the player's header says about the answers of a running attempt (docs/decisions/095). */
export const ANSWER_SAVE_MSG = {
  saved: 'Ответы сохранены',
  saving: 'Сохраняем…',
  offline: 'Нет связи: ответы сохранены на этом устройстве, отправим, когда связь вернётся',
} as const;

/** Nothing to say yet, a save under way, all given answers on the server, or waiting for the connection. */
export type AnswerSaveState = 'idle' | 'saving' | 'saved' | 'offline';

export interface AnswerSaveTiming {
  /** The quiet period after a change before the answers are sent. */
  delay: number;
  /** The first pause before a failed save is tried again; doubled each time up to `maxRetry`. */
  retry: number;
  maxRetry: number;
}

export const ANSWER_SAVE_TIMING: AnswerSaveTiming = { delay: 1500, retry: 2000, maxRetry: 30_000 };

type Timer = ReturnType<typeof setTimeout>;

interface AnswerSaverOptions {
  /** Sends the answers as they are now (read when sending, so always the newest); `urgent` when the page is being hidden. */
  send: (urgent: boolean) => Promise<unknown>;
  /** A refusal that trying again cannot mend (the attempt was submitted or closed): saving stops, quietly. */
  isFinal: (err: unknown) => boolean;
  onState: (state: AnswerSaveState) => void;
  timing?: AnswerSaveTiming;
}

/**
 * Saves an attempt's answers as the learner goes, free of React so that tests drive it with fake
 * timers. A change starts a quiet period (only the last of quick changes is sent); `saveNow` sends at
 * once (another question, the page hidden). One save at a time: a change during one is sent when it
 * ends. A failure is tried again with a growing pause, and at once when `retryNow` is called (the
 * connection is back), for as long as the attempt runs; the answers stay in the tab meanwhile.
 */
export class AnswerSaver {
  private state: AnswerSaveState = 'idle';
  private dirty = false;
  private inFlight = false;
  private urgentNext = false;
  private failures = 0;
  private stopped = false;
  private debounceTimer: Timer | null = null;
  private retryTimer: Timer | null = null;
  private readonly timing: AnswerSaveTiming;

  constructor(private readonly options: AnswerSaverOptions) {
    this.timing = options.timing ?? ANSWER_SAVE_TIMING;
  }

  /** The answers changed: sent after the quiet period (or with the retry already waiting). */
  change(): void {
    if (this.stopped) return;
    this.dirty = true;
    if (this.retryTimer !== null) return;
    this.clear('debounceTimer');
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = null;
      this.run();
    }, this.timing.delay);
  }

  /** Sends what is not yet saved at once. */
  saveNow(urgent = false): void {
    if (this.stopped || !this.dirty) return;
    this.urgentNext ||= urgent;
    this.clear('debounceTimer');
    this.clear('retryTimer');
    this.run();
  }

  /** The connection is back: a waiting retry goes now. */
  retryNow(): void {
    if (this.retryTimer !== null) this.saveNow();
  }

  dispose(): void {
    this.stopped = true;
    this.clear('debounceTimer');
    this.clear('retryTimer');
  }

  private clear(name: 'debounceTimer' | 'retryTimer') {
    const timer = this[name];
    if (timer !== null) clearTimeout(timer);
    this[name] = null;
  }

  private setState(state: AnswerSaveState) {
    if (this.stopped || state === this.state) return;
    this.state = state;
    this.options.onState(state);
  }

  private run() {
    if (this.stopped || !this.dirty || this.inFlight) return;
    this.inFlight = true;
    this.dirty = false;
    const urgent = this.urgentNext;
    this.urgentNext = false;
    // While offline the header keeps saying so until a save gets through, rather than flickering.
    if (this.state !== 'offline') this.setState('saving');
    this.options.send(urgent).then(
      () => {
        this.inFlight = false;
        this.failures = 0;
        if (this.dirty && this.debounceTimer === null) this.run();
        else if (!this.dirty) this.setState('saved');
      },
      (err: unknown) => {
        this.inFlight = false;
        if (this.options.isFinal(err)) {
          this.setState('idle');
          this.dispose();
          return;
        }
        this.dirty = true;
        this.setState('offline');
        this.clear('debounceTimer');
        const pause = Math.min(this.timing.maxRetry, this.timing.retry * 2 ** this.failures);
        this.failures += 1;
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          this.run();
        }, pause);
      },
    );
  }
}
