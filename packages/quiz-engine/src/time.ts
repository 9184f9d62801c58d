/**
 * The time-limit rules: a limit of 0 or none is no limit; the server's clock
 * decides; answers that arrive after the deadline and a short grace (the network's delay) count as
 * unanswered.
 */
export const ATTEMPT_GRACE_SECONDS = 5;

/** When an attempt started at startedAt must end; null when there is no limit. timeLimit in minutes. */
export const deadlineOf = (startedAt: Date, timeLimit: number | null | undefined): Date | null =>
  timeLimit && timeLimit > 0 ? new Date(startedAt.getTime() + timeLimit * 60_000) : null;

/** Past the deadline and its grace. */
export const isLate = (deadline: Date | null | undefined, now: Date, graceSeconds = ATTEMPT_GRACE_SECONDS): boolean =>
  !!deadline && now.getTime() > deadline.getTime() + graceSeconds * 1000;

/** Whole seconds left until the deadline (never below 0); null without a limit. */
export const secondsLeft = (deadline: Date | null | undefined, now: Date): number | null =>
  deadline ? Math.max(0, Math.ceil((deadline.getTime() - now.getTime()) / 1000)) : null;

/** 4:05, 0:09: the countdown as the player shows it (a started second counts whole). */
export const formatCountdown = (seconds: number): string => {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
