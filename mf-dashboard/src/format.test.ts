import { actionCount, greeting, lastLocalDays, relativeTime, shownOf, todayLabel } from './format';

const at = (h: number, m = 0, s = 0) => new Date(2026, 10, 22, h, m, s);

describe('the greeting by time of day', () => {
  it('says good morning until 11:59:59', () => {
    expect(greeting(at(0))).toBe('Доброе утро');
    expect(greeting(at(6, 30))).toBe('Доброе утро');
    expect(greeting(at(11, 59, 59))).toBe('Доброе утро');
  });

  it('says good afternoon from 12:00 until 17:59:59', () => {
    expect(greeting(at(12))).toBe('Добрый день');
    expect(greeting(at(17, 59, 59))).toBe('Добрый день');
  });

  it('says good evening from 18:00', () => {
    expect(greeting(at(18))).toBe('Добрый вечер');
    expect(greeting(at(23, 59))).toBe('Добрый вечер');
  });

  it('writes today’s date in Russian', () => {
    expect(todayLabel(at(9))).toBe('Воскресенье, 22 ноября 2026 г.');
  });
});

describe('relative times of recent activity', () => {
  const now = new Date('2026-11-22T12:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const MIN = 60_000;
  const HOUR = 60 * MIN;
  const DAY = 24 * HOUR;

  it('says "только что" under a minute (and for a clock a little ahead)', () => {
    expect(relativeTime(ago(0), now)).toBe('только что');
    expect(relativeTime(ago(59_999), now)).toBe('только что');
    expect(relativeTime(ago(-5000), now)).toBe('только что');
  });

  it('counts minutes under an hour', () => {
    expect(relativeTime(ago(MIN), now)).toBe('1 мин назад');
    expect(relativeTime(ago(59 * MIN + 59_000), now)).toBe('59 мин назад');
  });

  it('counts hours under a day', () => {
    expect(relativeTime(ago(HOUR), now)).toBe('1 ч назад');
    expect(relativeTime(ago(DAY - 1), now)).toBe('23 ч назад');
  });

  it('counts days under a week', () => {
    expect(relativeTime(ago(DAY), now)).toBe('1 дн назад');
    expect(relativeTime(ago(7 * DAY - 1), now)).toBe('6 дн назад');
  });

  it('gives the ru-RU date from a week on', () => {
    expect(relativeTime(ago(7 * DAY), now)).toBe('15.11.2026');
    expect(relativeTime('2025-01-02T12:00:00.000Z', now)).toBe('02.01.2025');
  });
});

describe('counts in Russian', () => {
  it('shows "Показано X из Y записей" with the form Russian asks for', () => {
    expect(shownOf(20, 57)).toBe('Показано 20 из 57 записей');
    expect(shownOf(0, 0)).toBe('Показано 0 из 0 записей');
    expect(shownOf(1, 1)).toBe('Показано 1 из 1 записи');
    expect(shownOf(20, 21)).toBe('Показано 20 из 21 записи');
    expect(shownOf(3, 3)).toBe('Показано 3 из 3 записей');
    expect(shownOf(20, 500, false)).toBe('Показано 20 из 500+ записей');
    expect(shownOf(20, 21, false)).toBe('Показано 20 из 21+ записи');
    expect(shownOf(11, 11)).toBe('Показано 11 из 11 записей');
  });

  it('counts actions', () => {
    expect([0, 1, 2, 5, 21, 22, 111].map(actionCount)).toEqual([
      '0 действий',
      '1 действие',
      '2 действия',
      '5 действий',
      '21 действие',
      '22 действия',
      '111 действий',
    ]);
  });

  it('lists the last 14 local days, oldest first, across a month', () => {
    const days = lastLocalDays(14, new Date(2026, 11, 3, 9));
    expect(days).toHaveLength(14);
    expect(days[0]).toBe('2026-11-20');
    expect(days[13]).toBe('2026-12-03');
  });
});
