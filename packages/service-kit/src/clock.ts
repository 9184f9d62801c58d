/**
 * The one source of "now" for rules that depend on dates (assignments' due dates, days left,
 * recurrence): tests move it instead of waiting. Production never moves it: `set` and `advance`
 * refuse when NODE_ENV is production, so the seam cannot be turned on there by mistake.
 */
export interface Clock {
  now(): Date;
}

let offsetMs = 0;

const refuseInProduction = (): void => {
  if (process.env.NODE_ENV === 'production') throw new Error('the clock cannot be moved in production');
};

export const clock: Clock & {
  /** Tests only: from now on, `now()` answers this moment (and runs on from it). */
  set(at: Date): void;
  /** Tests only: moves the clock forward (or back, with a negative amount). */
  advance(ms: number): void;
  /** Back to the real time. */
  reset(): void;
} = {
  now: () => new Date(Date.now() + offsetMs),
  set(at) {
    refuseInProduction();
    offsetMs = at.getTime() - Date.now();
  },
  advance(ms) {
    refuseInProduction();
    offsetMs += ms;
  },
  reset() {
    offsetMs = 0;
  },
};

export const DAY_MS = 86_400_000;
