import {
  STAGE_STATUS_LABELS,
  ruCount,
  ruForm,
  type ProgramPersonStatus,
  type StageProgress,
  type StageStatus,
} from '@portal/contracts';
import type { BadgeTone } from '@portal/ui';
import { formatDay } from '@portal/web-core/assignments';

/**
 * How a learner's stage is said: its status, its deadline and days left, its courses' count. One
 * place for the dashboard's card, /my-programs and the program's page.
 */

const days = (n: number): string => ruCount(n, { one: 'день', few: 'дня', many: 'дней' });

/** «остался 1 день», «осталось 5 дней», «последний день», «просрочен на 2 дня»; null without a deadline. */
export function daysLeftPhrase(daysLeft: number | null): string | null {
  if (daysLeft === null) return null;
  if (daysLeft < 0) return `просрочен на ${days(-daysLeft)}`;
  if (daysLeft === 0) return 'последний день';
  return `${ruForm(daysLeft, { one: 'остался', few: 'осталось', many: 'осталось' })} ${days(daysLeft)}`;
}

/** A stage counted from a previous one still open has no day yet: it says how long it will have (`dueDays`). */
export type StageDue = Pick<StageProgress, 'status' | 'dueDate' | 'daysLeft'> & Partial<Pick<StageProgress, 'dueDays'>>;

/** «до 12.12.2026, осталось 3 дня»; a stage counted from a previous one still open: «срок — 10 дней после предыдущего этапа». */
export function stageDueText({ status, dueDate, daysLeft, dueDays }: StageDue): string {
  if (dueDate === null) {
    return dueDays ? `срок — ${days(dueDays)} после предыдущего этапа` : 'срок считается от завершения предыдущего этапа';
  }
  const left = status === 'completed' ? null : daysLeftPhrase(daysLeft);
  return left ? `до ${formatDay(dueDate)}, ${left}` : `до ${formatDay(dueDate)}`;
}

/** «пройден», «в процессе», «просрочен»; a locked stage names the stage that opens it. */
export function stageStatusText({ status, opensAfter }: Pick<StageProgress, 'status' | 'opensAfter'>): string {
  if (status === 'locked' && opensAfter) return `закрыт до завершения этапа «${opensAfter}»`;
  return STAGE_STATUS_LABELS[status];
}

export const STAGE_STATUS_TONES: Record<StageStatus, BadgeTone> = {
  completed: 'success',
  in_progress: 'primary',
  locked: 'muted',
  overdue: 'danger',
};

/** «Пройдено 1 из 2», and when any N of the stage's courses complete it, «(нужно любые 2)». */
export function stageCountText({ done, required, courses }: Pick<StageProgress, 'done' | 'required' | 'courses'>): string {
  const any = required < courses.length ? ` (нужно любые ${required})` : '';
  return `Пройдено ${Math.min(done, required)} из ${required}${any}`;
}

export const PROGRAM_STATUS_TONES: Record<ProgramPersonStatus, BadgeTone> = {
  completed: 'success',
  in_progress: 'primary',
  overdue: 'danger',
};
