import { z } from 'zod';
import './zod-ru';
import { auditQuerySchema, type AuditAction, type AuditEntity } from './audit';
import type { PeriodChange } from './crm';
import { ROLES, isStaff, type Role } from './roles';

/* ------------------------------------------------------------------ texts */

/** Dashboard and activity-history texts (the screens, their alerts and constants), quoted once. */
export const DASHBOARD_MSG = {
  title: 'Главная',
  loadFailed: 'Не удалось загрузить данные дашборда',
  partial: 'Часть данных временно недоступна: показано то, что удалось получить',
  unavailable: 'Данные временно недоступны',
  morning: 'Доброе утро',
  afternoon: 'Добрый день',
  evening: 'Добрый вечер',
  justNow: 'только что',
  minutesAgo: '{n} мин назад',
  hoursAgo: '{n} ч назад',
  daysAgo: '{n} дн назад',
  quickActions: 'Быстрые действия',
  recentActivity: 'Последние действия',
  noActivity: 'Пока нет действий',
  chartTitle: 'Активность за 14 дней',
  history: 'История действий',
  historyEmpty: 'Записи не найдены',
  shownOf: 'Показано {shown} из {total} {records}',
  /** When the history counted up to AUDIT_TOTAL_CAP (or its day limit) and stopped: «из 500+ записей». */
  shownOfAtLeast: 'Показано {shown} из {total}+ {records}',
  loadMore: 'Показать ещё',
  resetDates: 'Сбросить',
  newestFirst: 'Сначала новые',
  oldestFirst: 'Сначала старые',
  searchPlaceholder: 'Поиск по имени, email или описанию',
  endBeforeStart: 'Дата окончания раньше даты начала',
  unknownTimeZone: 'Неизвестный часовой пояс',
  system: 'Система',
} as const;

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  create: 'Создание',
  read: 'Просмотр',
  update: 'Изменение',
  delete: 'Удаление',
  login: 'Вход',
  logout: 'Выход',
};

export const AUDIT_ENTITY_LABELS: Record<AuditEntity, string> = {
  dashboard: 'Дашборд',
  course: 'Курс',
  user: 'Пользователь',
  organization: 'Организация',
  contact: 'Контакт',
  audit: 'Журнал действий',
  lesson: 'Урок',
  quiz: 'Квиз',
  block: 'Блок',
  progress: 'Прогресс',
  profile: 'Профиль',
  consent: 'Согласие',
  application: 'Заявка',
  assignment: 'Назначение',
  certificate: 'Сертификат',
  program: 'Программа обучения',
};

/* ------------------------------------------------------------ audit reads */

/** An IANA time zone name the runtime knows ('Europe/Moscow', 'UTC'). */
export const isTimeZone = (value: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

export const timeZoneSchema = z.string().trim().min(1).max(64).refine(isTimeZone, { message: DASHBOARD_MSG.unknownTimeZone });

/**
 * GET /api/audit and /api/audit/my: the spec's query (page, limit, entity, action, startDate,
 * endDate, sort) plus a free-text search and the reader's time zone, in which the dates are days.
 */
export const auditListQuerySchema = auditQuerySchema
  .extend({
    search: z.string().trim().max(200).optional(),
    tz: timeZoneSchema.default('UTC'),
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
    message: DASHBOARD_MSG.endBeforeStart,
    path: ['endDate'],
  });
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;
export type AuditListParams = z.input<typeof auditListQuerySchema>;

/** The spec's audit record as the API answers it. */
export interface AuditRecord {
  id: string;
  action: AuditAction;
  entity: AuditEntity;
  entityId: string | null;
  details: string;
  user: { id: string; fullName: string; email: string } | null;
  timestamp: string;
  /** The kind of event in the contracts' table (auditEvents) and its data; absent on old records kept as text. */
  code?: string;
  data?: Record<string, unknown>;
}

/**
 * A curator's feed and history name their learners and co-authors, but show no one's email but
 * the reader's own.
 */
export const withoutOthersEmail =
  (readerId: string | undefined) =>
  (record: AuditRecord): AuditRecord =>
    record.user && record.user.id !== readerId ? { ...record, user: { ...record.user, email: '' } } : record;

export interface AuditPage {
  data: AuditRecord[];
  /** The records the filter selects, or a lower bound of them when `totalExact` is false. */
  total: number;
  /**
   * False when counting stopped at AUDIT_TOTAL_CAP records (a search, a person's own history, no
   * period; or after AUDIT_MAX_DAYS_COUNTED days of a searched period), or when some days of a period
   * are not summarised yet: there are at least `total` records, and pages go on while they come back full.
   */
  totalExact: boolean;
  page: number;
  limit: number;
}

/** A history page counts the records its filter selects up to this many, then says «500+». */
export const AUDIT_TOTAL_CAP = 500;
/** The days of a searched period a history page counts at most, one bounded query each. */
export const AUDIT_MAX_DAYS_COUNTED = 31;

export const ACTIVITY_DAYS = 14;
export const RECENT_ACTIVITY_LIMIT = 10;

/** GET /internal/activity of the audit service, for the dashboard. */
export const activityQuerySchema = z.object({
  actorId: z.string().trim().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(RECENT_ACTIVITY_LIMIT),
  days: z.coerce.number().int().min(1).max(90).default(ACTIVITY_DAYS),
  tz: timeZoneSchema.default('UTC'),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

/** The ids a curator's feed may show records about: their courses, the courses' modules, lessons and quizzes. */
export const MAX_ACTIVITY_SCOPE_IDS = 5000;

/**
 * POST /internal/activity of the audit service: a curator's feed, the records of their own
 * actions and those about their courses' parts (`entityIds`: a learner's lesson, attempt or course
 * completion names one of them), nothing else of the trail.
 */
export const scopedActivitySchema = activityQuerySchema.extend({
  actorId: z.string().trim().min(1).max(100),
  entityIds: z.array(z.string().trim().min(1).max(100)).max(MAX_ACTIVITY_SCOPE_IDS),
});
export type ScopedActivityQuery = z.infer<typeof scopedActivitySchema>;

/**
 * POST /internal/audit and /internal/audit/export of the audit service, whose query string is the
 * history's (GET /api/audit and its export): a curator's history, scoped as their feed is (issue
 * 49.22): the reader's own actions and the records about their courses' parts (`entityIds`).
 */
export const scopedHistorySchema = z.object({
  reader: z.object({
    id: z.string().trim().min(1).max(100),
    fullName: z.string().max(300),
    email: z.string().max(320),
  }),
  entityIds: z.array(z.string().trim().min(1).max(100)).max(MAX_ACTIVITY_SCOPE_IDS),
});
export type ScopedHistory = z.infer<typeof scopedHistorySchema>;

/** GET /internal/courses/activity-scope?userId= of the content service. */
export interface ActivityScope {
  ids: string[];
}

export interface DayCount {
  /** The day in the reader's time zone, YYYY-MM-DD. */
  date: string;
  count: number;
}

export interface AuditActivity {
  recent: AuditRecord[];
  /** Oldest day first, today last. */
  byDay: DayCount[];
}

/* ------------------------------------------------------ dashboard figures */

/** GET /internal/stats of the auth service. */
/**
 * What a service's stats add about their figures: the names of those counted to LIST_TOTAL_CAP and
 * stopped (each is then «at least»); absent when every figure is exact.
 */
export interface FigureBounds {
  lowerBounds?: DashboardFigure[];
}

export interface AuthStats extends FigureBounds {
  totalStudents: number;
  newStudents: PeriodChange;
}

/** GET /internal/stats?userId= of the progress service. */
export interface ProgressStats extends FigureBounds {
  completedCourses: number;
  change: PeriodChange;
}

export const progressStatsQuerySchema = z.object({ userId: z.string().trim().min(1).max(100) });

/**
 * GET /internal/stats?role=&userId= of the content service: the reader as data, since the course
 * figures count what the reader can see (authors every course; anyone else published ones, and as
 * active courses the ones they have started).
 */
export const contentStatsQuerySchema = z.object({
  role: z.enum(ROLES),
  userId: z.string().trim().min(1).max(100),
});
export type ContentStatsQuery = z.infer<typeof contentStatsQuerySchema>;

export const DASHBOARD_FIGURES = [
  'totalCourses',
  'activeCourses',
  'totalStudents',
  'completedCourses',
  'organizations',
  'contacts',
] as const;
export type DashboardFigure = (typeof DASHBOARD_FIGURES)[number];

export const FIGURE_LABELS: Record<DashboardFigure, string> = {
  totalCourses: 'Всего курсов',
  activeCourses: 'Активные курсы',
  totalStudents: 'Студенты',
  completedCourses: 'Завершённые курсы',
  organizations: 'Организации',
  contacts: 'Контакты',
};

/**
 * ADMIN and CURATOR see courses, active courses, students and organizations (and
 * the contacts figure the stats carry); everyone else sees courses, active courses and their own
 * completed courses. The figures are the cards, in this order. Each counts what the reader can
 * see: for staff every course and the published ones; for anyone else the published courses (the
 * catalogue they browse) and, as active, the published courses they have started (the catalogue's
 * «Начатые»).
 */
export const figuresFor = (role: Role): readonly DashboardFigure[] =>
  isStaff(role)
    ? ['totalCourses', 'activeCourses', 'totalStudents', 'organizations']
    : ['totalCourses', 'activeCourses', 'completedCourses'];

/** Which figures the stats answer may carry for a role (a card list plus what else it may know). */
export const visibleFiguresFor = (role: Role): readonly DashboardFigure[] =>
  isStaff(role) ? [...figuresFor(role), 'contacts'] : figuresFor(role);

export const DASHBOARD_SOURCES = ['auth', 'content', 'progress', 'crm', 'audit'] as const;
export type DashboardSource = (typeof DASHBOARD_SOURCES)[number];

export const ACTIVITY_SCOPES = ['all', 'courses', 'own'] as const;
export type ActivityScopeKind = (typeof ACTIVITY_SCOPES)[number];

/** Whose activity a role's dashboard shows (a curator sees their courses', not everyone's). */
export const activityScopeFor = (role: Role): ActivityScopeKind =>
  role === 'ADMIN' ? 'all' : role === 'CURATOR' ? 'courses' : 'own';

/** GET /api/dashboard/stats. A figure is null when the role does not see it or its service did not answer in time. */
export interface DashboardStats {
  totalCourses: number | null;
  activeCourses: number | null;
  totalStudents: number | null;
  completedCourses: number | null;
  organizations: number | null;
  contacts: number | null;
  /** Per figure: how many arrived in the last 30 days ('+12', '0'), or null (also when a window was not counted whole). */
  change: Record<DashboardFigure, string | null>;
  /** The figures counted to LIST_TOTAL_CAP and stopped: there are more («10 000+»). */
  lowerBounds: DashboardFigure[];
  recentActivity: AuditRecord[];
  /** Actions per day over the last ACTIVITY_DAYS days, oldest first (the reader's own for learners). */
  activityByDay: DayCount[];
  /**
   * 'all' for ADMIN; 'courses' for a curator (their own actions and those about their courses:
   * their learners' work, co-authors' edits); 'own' when the activity is the reader's own.
   */
  activityScope: ActivityScopeKind;
  partial: boolean;
  /** The services that did not answer within the time budget. */
  unavailable: DashboardSource[];
}

export const dashboardStatsQuerySchema = z.object({ tz: timeZoneSchema.default('UTC') });

/**
 * The change text of a figure: how many arrived in the last 30 days ('+26', '0'), in the figure's
 * own unit on every card. A percent against the 30 days before means nothing when nothing came
 * then, and a card with «+26» beside one with «0%» mixed two units.
 */
export function changeText({ last30 }: PeriodChange): string {
  return last30 === 0 ? '0' : `+${last30}`;
}
