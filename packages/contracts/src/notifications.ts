import { z } from 'zod';
import './zod-ru';
import { entityIdField } from './content';
import { pagingFields, type Page } from './paging';

/**
 * In-app notifications (docs/decisions/079, 080): stored per person by the progress service, shown by the
 * bell in the shell's chrome. The texts of reminders and of their mails are written here once.
 */

export const NOTIFICATION_KINDS = [
  'assigned',
  'due_soon',
  'due_today',
  'overdue',
  'overdue_summary',
  'attempt_reviewed',
  'program_assigned',
  'stage_opened',
  'stage_due_soon',
  'stage_overdue',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Days before the due day the «скоро срок» reminder is sent. */
export const DUE_SOON_DAYS = 3;

export interface Notification {
  id: string;
  kind: NotificationKind;
  title: string;
  text: string;
  /** A portal path (`/student/{courseId}`) the notification leads to. */
  link: string;
  read: boolean;
  createdAt: string;
}

/**
 * The unread notifications are counted to this many at most: the bell says «99+» past 99, and the
 * count, asked on every page each minute, reads no more of a person's backlog than that.
 */
export const NOTIFICATION_UNREAD_CAP = 100;

/** A page of one person's notifications, newest first, with how many of all of theirs are unread. */
export interface NotificationPage extends Page<Notification> {
  /** Unread of all of theirs, to NOTIFICATION_UNREAD_CAP at most (that many means «more than 99»). */
  unread: number;
}

export const notificationListQuerySchema = z.object({ ...pagingFields(10) });
export const notificationIdParam = entityIdField('id');

export const NOTIFICATION_MSG = {
  notFound: 'Уведомление не найдено',
} as const;

/** Where a notification leads: the course in study mode, an assignment's report, the learner's results. */
export const notificationLinks = {
  study: (courseId: string) => `/student/${courseId}`,
  assignment: (assignmentId: string) => `/assignments/${assignmentId}`,
  results: () => '/results',
  program: (assignmentId: string) => `/my-programs/${assignmentId}`,
};

/** «31.12.2026» from YYYY-MM-DD. */
const dayText = (day: string) => day.split('-').reverse().join('.');

/** Someone's own words in a notification (a curator's message), kept apart from the portal's. */
export interface NotificationNote {
  /** Who said it: «Сообщение куратора (Анна Смирнова)». */
  by: string;
  text: string;
}

/** The note's one line in the bell: «Сообщение куратора (Анна Смирнова): «…»». */
export const noteLine = (note: NotificationNote): string => `${note.by}: «${note.text}»`;

/**
 * The title and text of a reminder to a learner (the same words in the bell and in the mail); the
 * curator's message of an assignment comes as a note of its own, marked as theirs.
 */
export function reminderText(
  kind: 'assigned' | 'due_soon' | 'due_today' | 'overdue',
  {
    courseTitle,
    dueDate,
    message = '',
    curatorName = '',
  }: { courseTitle: string; dueDate: string; message?: string; curatorName?: string },
): { title: string; text: string; note?: NotificationNote } {
  const due = dayText(dueDate);
  switch (kind) {
    case 'assigned':
      return {
        title: `Вам назначен курс «${courseTitle}»`,
        text: `Пройдите его до ${due} включительно.`,
        ...(message.trim()
          ? { note: { by: curatorName ? `Сообщение куратора (${curatorName})` : 'Сообщение куратора', text: message.trim() } }
          : {}),
      };
    case 'due_soon':
      return {
        title: `Через ${DUE_SOON_DAYS} дня срок курса «${courseTitle}»`,
        text: `Курс нужно завершить до ${due} включительно.`,
      };
    case 'due_today':
      return { title: `Сегодня последний день курса «${courseTitle}»`, text: `Срок — ${due}: завершите курс сегодня.` };
    case 'overdue':
      return {
        title: `Курс «${courseTitle}» просрочен`,
        text: `Срок был ${due}. Завершите курс как можно скорее.`,
      };
  }
}

/** The one summary a curator gets when people of their assignment missed the due day. */
export const overdueSummaryText = ({ courseTitle, dueDate, count }: { courseTitle: string; dueDate: string; count: number }) => ({
  title: `Просрочено назначение курса «${courseTitle}»`,
  text: `Срок ${dayText(dueDate)} прошёл, не завершили: ${count} чел.`,
});

/** A learner's attempt whose answers a person graded is final. */
export const attemptReviewedText = ({
  quizTitle,
  percentage,
  passed,
}: {
  quizTitle: string;
  percentage: number;
  passed: boolean;
}) => ({
  title: `Проверен тест «${quizTitle}»`,
  text: `Итог: ${percentage}% — ${passed ? 'тест пройден' : 'тест не пройден'}.`,
});

/** What a learner is told about a program: assigned, a stage opened, a stage due soon or missed. */
export function programNotificationText(
  kind: 'program_assigned' | 'stage_opened' | 'stage_due_soon' | 'stage_overdue',
  {
    programTitle,
    stageTitle = '',
    dueDate = null,
    message = '',
    curatorName = '',
  }: { programTitle: string; stageTitle?: string; dueDate?: string | null; message?: string; curatorName?: string },
): { title: string; text: string; note?: NotificationNote } {
  const due = dueDate ? ` до ${dayText(dueDate)} включительно` : '';
  switch (kind) {
    case 'program_assigned':
      return {
        title: `Вам назначена программа обучения «${programTitle}»`,
        text: stageTitle
          ? `Начните с этапа «${stageTitle}»: его нужно пройти${due}.`
          : 'Откройте программу, чтобы увидеть её этапы.',
        ...(message.trim()
          ? { note: { by: curatorName ? `Сообщение куратора (${curatorName})` : 'Сообщение куратора', text: message.trim() } }
          : {}),
      };
    case 'stage_opened':
      return {
        title: `Открыт этап «${stageTitle}» программы «${programTitle}»`,
        text: `Предыдущий этап пройден. Пройдите этот этап${due}.`,
      };
    case 'stage_due_soon':
      return {
        title: `Через ${DUE_SOON_DAYS} дня срок этапа «${stageTitle}»`,
        text: `Этап программы «${programTitle}» нужно пройти${due}.`,
      };
    case 'stage_overdue':
      return {
        title: `Этап «${stageTitle}» программы «${programTitle}» просрочен`,
        text: `Срок был ${dueDate ? dayText(dueDate) : '—'}. Пройдите этап как можно скорее.`,
      };
  }
}
