/**
 * Calendar days in a reader's time zone. A person in Moscow who asks for "22 November" means
 * 00:00 to 23:59:59 Moscow time, not UTC; the bounds are computed with Intl, so daylight-saving
 * zones get their 23- and 25-hour days right.
 */

import { wallClock } from '@portal/service-kit';

const DAY_MS = 86_400_000;

/** How far the zone's clock is ahead of UTC at an instant, in ms. */
const offsetAt = (instant: number, timeZone: string): number => wallClock(new Date(instant), timeZone).getTime() - instant;

const parseDay = (day: string): number => {
  const [y, m, d] = day.split('-').map(Number);
  return Date.UTC(y, m - 1, d);
};

/** The first instant of a day (YYYY-MM-DD) in a time zone. */
export function startOfDay(day: string, timeZone = 'UTC'): Date {
  const wall = parseDay(day);
  const guess = wall - offsetAt(wall, timeZone);
  // The offset at the guess may differ from the one at the wall time (a DST change that night).
  return new Date(wall - offsetAt(guess, timeZone));
}

/** The day after (YYYY-MM-DD). */
export const nextDay = (day: string): string => new Date(parseDay(day) + DAY_MS).toISOString().slice(0, 10);

/** The last millisecond of a day in a time zone: an end date is inclusive to 23:59:59 of that day. */
export const endOfDay = (day: string, timeZone = 'UTC'): Date => new Date(startOfDay(nextDay(day), timeZone).getTime() - 1);

/** The calendar day (YYYY-MM-DD) an instant falls on in a time zone. */
export function dayOf(instant: Date | number, timeZone = 'UTC'): string {
  return wallClock(new Date(instant), timeZone).toISOString().slice(0, 10);
}

/** The last `count` days up to and including today, oldest first, each with its [start, end) bounds. */
export function lastDays(count: number, timeZone = 'UTC', now = new Date()): Array<{ date: string; start: Date; end: Date }> {
  const today = parseDay(dayOf(now, timeZone));
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(today - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10);
    return { date, start: startOfDay(date, timeZone), end: startOfDay(nextDay(date), timeZone) };
  });
}
