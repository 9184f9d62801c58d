import { dayOf, endOfDay, lastDays, nextDay, startOfDay } from './period';

describe('calendar days of the history filter', () => {
  it('makes an end date inclusive to 23:59:59 of that day (UTC)', () => {
    expect(startOfDay('2026-03-03').toISOString()).toBe('2026-03-03T00:00:00.000Z');
    expect(endOfDay('2026-03-03').toISOString()).toBe('2026-03-03T23:59:59.999Z');
  });

  it('reads the days in the reader’s time zone', () => {
    // Moscow is UTC+3 all year: its 3 March runs from 2 March 21:00 UTC to 3 March 20:59:59.999 UTC.
    expect(startOfDay('2026-03-03', 'Europe/Moscow').toISOString()).toBe('2026-03-02T21:00:00.000Z');
    expect(endOfDay('2026-03-03', 'Europe/Moscow').toISOString()).toBe('2026-03-03T20:59:59.999Z');
    expect(startOfDay('2026-03-03', 'America/New_York').toISOString()).toBe('2026-03-03T05:00:00.000Z');
  });

  it('keeps the last second of the day and drops the first of the next', () => {
    const end = endOfDay('2026-03-03', 'Europe/Moscow');
    const lastSecond = new Date('2026-03-03T20:59:59.000Z'); // 23:59:59 in Moscow
    const nextMidnight = new Date('2026-03-03T21:00:00.000Z'); // 00:00:00 on 4 March in Moscow
    expect(lastSecond <= end).toBe(true);
    expect(nextMidnight <= end).toBe(false);
  });

  it('gets the short and the long day of daylight saving right', () => {
    // New York springs forward on 8 March 2026 (23 hours) and falls back on 1 November (25 hours).
    const hours = (day: string) =>
      (startOfDay(nextDay(day), 'America/New_York').getTime() - startOfDay(day, 'America/New_York').getTime()) / 3_600_000;
    expect(hours('2026-03-08')).toBe(23);
    expect(hours('2026-11-01')).toBe(25);
    expect(endOfDay('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-09T03:59:59.999Z');
  });

  it('crosses months and years', () => {
    expect(nextDay('2026-02-28')).toBe('2026-03-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });

  it('tells the day an instant falls on where the reader is', () => {
    const lateEvening = new Date('2026-03-03T22:30:00.000Z');
    expect(dayOf(lateEvening, 'UTC')).toBe('2026-03-03');
    expect(dayOf(lateEvening, 'Europe/Moscow')).toBe('2026-03-04');
  });

  it('lists the last 14 days up to today, oldest first, each from midnight to midnight', () => {
    const days = lastDays(14, 'Europe/Moscow', new Date('2026-03-03T22:30:00.000Z'));
    expect(days).toHaveLength(14);
    expect(days[13].date).toBe('2026-03-04');
    expect(days[0].date).toBe('2026-02-19');
    expect(days[13].start.toISOString()).toBe('2026-03-03T21:00:00.000Z');
    expect(days[13].end.toISOString()).toBe('2026-03-04T21:00:00.000Z');
    for (let i = 1; i < days.length; i++) expect(days[i].start.getTime()).toBe(days[i - 1].end.getTime());
  });
});
