import { DASHBOARD_MSG, formatMessage, ruCount, ruForm } from '@portal/contracts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Morning before 12:00, afternoon before 18:00, else evening (the reader's own clock). */
export function greeting(now: Date): string {
  const hour = now.getHours();
  if (hour < 12) return DASHBOARD_MSG.morning;
  if (hour < 18) return DASHBOARD_MSG.afternoon;
  return DASHBOARD_MSG.evening;
}

const dateFormat = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeStyle: 'short' });
const todayFormat = new Intl.DateTimeFormat('ru-RU', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const dayMonthFormat = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'short' });
const dayMonthLongFormat = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long' });

/** A date in ru-RU format: 22.11.2026. */
export const formatDate = (value: Date | string): string => dateFormat.format(new Date(value));
/** A moment in ru-RU format: 22.11.2026, 11:23. */
export const formatDateTime = (value: Date | string): string => dateTimeFormat.format(new Date(value));

/** Today's date in Russian, as the greeting shows it: "Воскресенье, 22 ноября 2026 г.". */
export function todayLabel(now: Date): string {
  const text = todayFormat.format(now);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Under a minute 'только что'; under an hour 'N мин назад'; under a day 'N ч
 * назад'; under a week 'N дн назад'; otherwise the date in ru-RU format. A moment slightly in the
 * future (a clock a little ahead) is 'только что' too.
 */
export function relativeTime(value: Date | string, now: Date): string {
  const then = new Date(value);
  const ago = now.getTime() - then.getTime();
  if (ago < MINUTE) return DASHBOARD_MSG.justNow;
  if (ago < HOUR) return formatMessage(DASHBOARD_MSG.minutesAgo, { n: Math.floor(ago / MINUTE) });
  if (ago < DAY) return formatMessage(DASHBOARD_MSG.hoursAgo, { n: Math.floor(ago / HOUR) });
  if (ago < 7 * DAY) return formatMessage(DASHBOARD_MSG.daysAgo, { n: Math.floor(ago / DAY) });
  return formatDate(then);
}

/**
 * 'Показано X из Y записей', with 'записи' after 1, 21, 31... as Russian asks ('из 1 записи');
 * 'из 500+ записей' when the server stopped counting (`exact` false).
 */
export const shownOf = (shown: number, total: number, exact = true): string =>
  formatMessage(exact ? DASHBOARD_MSG.shownOf : DASHBOARD_MSG.shownOfAtLeast, {
    shown,
    total,
    records: ruForm(total, { one: 'записи', few: 'записей', many: 'записей' }),
  });

/** "1 действие", "3 действия", "5 действий". */
export const actionCount = (n: number): string => ruCount(n, { one: 'действие', few: 'действия', many: 'действий' });

/** The short label of a chart day (YYYY-MM-DD): "22 нояб.". */
export const shortDay = (day: string): string => dayMonthFormat.format(dayAsLocalDate(day));
/** The long label of a chart day: "22 ноября". */
export const longDay = (day: string): string => dayMonthLongFormat.format(dayAsLocalDate(day));

const dayAsLocalDate = (day: string): Date => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d, 12);
};

const pad = (n: number) => String(n).padStart(2, '0');
/** A local calendar day as YYYY-MM-DD (what a date input holds). */
export const localDay = (date: Date): string => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The last `count` local days up to today, oldest first: the chart's days when there is no data. */
export const lastLocalDays = (count: number, now: Date): string[] =>
  Array.from({ length: count }, (_, i) =>
    localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - (count - 1 - i), 12)),
  );
