import { z } from 'zod';
import { pagingFields } from './paging';
import type { Role } from './roles';

/**
 * The directory sync (LDAP / Active Directory): runs that read the whole directory, compute each
 * person's outcome against the portal's accounts, and either only show it (a preview) or apply it.
 */
export const DIRECTORY_OUTCOMES = ['create', 'update', 'same', 'suspend', 'deactivate', 'reactivate', 'error'] as const;
export type DirectoryOutcome = (typeof DIRECTORY_OUTCOMES)[number];
/** The outcomes a run keeps person by person: everything but «без изменений» (counted only). */
export const DIRECTORY_LISTED_OUTCOMES = DIRECTORY_OUTCOMES.filter((o) => o !== 'same');

export const DIRECTORY_OUTCOME_LABELS: Record<DirectoryOutcome, string> = {
  create: 'Новый',
  update: 'Изменение',
  same: 'Без изменений',
  suspend: 'Приостановлен',
  deactivate: 'Деактивирован',
  reactivate: 'Восстановлен',
  error: 'Ошибка',
};

export const DIRECTORY_RUN_MODES = ['preview', 'apply'] as const;
export type DirectoryRunMode = (typeof DIRECTORY_RUN_MODES)[number];
export const DIRECTORY_RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type DirectoryRunStatus = (typeof DIRECTORY_RUN_STATUSES)[number];

export const DIRECTORY_RUN_STATUS_LABELS: Record<DirectoryRunStatus, string> = {
  queued: 'В очереди',
  running: 'Выполняется',
  done: 'Завершён',
  failed: 'Ошибка',
};

export const DIRECTORY_MSG = {
  notConfigured: 'Синхронизация с каталогом не настроена: задайте LDAP_URL и остальные параметры LDAP в конфигурации сервиса',
  runNotFound: 'Запуска синхронизации нет',
  previewNotFound: 'Предпросмотра нет: запустите предпросмотр заново',
  previewIdForApply: 'Предпросмотр указывают только при применении (mode: apply)',
  unreachable: 'Сервер каталога LDAP недоступен: {reason}. Никто не изменён',
  bindFailed: 'Сервер каталога отклонил учётную запись синхронизации (LDAP_BIND_DN и пароль). Никто не изменён',
  searchFailed: 'Чтение каталога прервано: {reason}. Никто не изменён',
  applyFailed: 'Изменения применены не полностью: {reason}. Повторный запуск продолжит с того же места',
  storeFailed: 'Запуск прерван: хранилище портала не ответило. Никто не изменён',
  interrupted: 'Запуск прерван: сервис остановился во время синхронизации. Запустите её снова',
  noId: 'В записи каталога нет постоянного идентификатора ({attribute})',
  noEmail: 'В записи каталога нет email ({attribute})',
  badEmail: 'Email «{email}» в каталоге записан с ошибкой',
  noName: 'В записи каталога нет фамилии и имени',
  duplicateEmail: 'Email {email} есть у нескольких записей каталога',
  emailTaken: 'Email {email} уже у другой учётной записи, связанной с каталогом',
  emailLocal: 'Email {email} у служебной учётной записи портала: она не связывается с каталогом',
  lastAdmin: 'Роль единственного администратора портала не меняется синхронизацией',
  disabled: 'Отключён в каталоге',
  leftScope: 'Нет в каталоге (вне базы или фильтра)',
  graceOver: 'Приостановлен дольше {days} дн.',
  suspendedLogin:
    'Учётная запись приостановлена: сотрудник отключён в корпоративном каталоге. Обратитесь к администратору портала',
} as const;

/** The configuration as the screen shows it: never the bind password, only whether it is set. */
export interface DirectoryConfig {
  enabled: boolean;
  url: string;
  bindDn: string;
  bindPasswordSet: boolean;
  baseDn: string;
  filter: string;
  pageSize: number;
  attributes: {
    id: string;
    lastName: string;
    firstName: string;
    middleName: string;
    email: string;
    department: string;
    position: string;
    groups: string;
    disabled: string;
  };
  groupRoles: Array<{ group: string; role: Role }>;
  defaultRole: Role;
  graceDays: number;
  /** How often the applied sync runs, in minutes. */
  everyMinutes: number;
}

export type DirectoryCounts = Record<DirectoryOutcome, number>;

export interface DirectoryRun {
  id: string;
  mode: DirectoryRunMode;
  status: DirectoryRunStatus;
  /** `schedule`: the job scheduler; `admin`: started on the screen. */
  trigger: 'schedule' | 'admin';
  by: { id: string; fullName: string } | null;
  /** The preview an apply was started from (it is computed again at apply time). */
  previewId: string | null;
  /** Entries read from the directory, and in how many pages. */
  read: number;
  pages: number;
  counts: DirectoryCounts;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface DirectoryPersonOutcome {
  outcome: DirectoryOutcome;
  directoryId: string;
  userId: string | null;
  email: string;
  fullName: string;
  department: string;
  position: string;
  role: Role | null;
  /** What changes, in words (update), or why (suspend, deactivate, error). */
  reason: string;
}

export const directoryRunStartSchema = z.object({
  mode: z.enum(DIRECTORY_RUN_MODES, { error: 'Режим запуска: preview (предпросмотр) или apply (применить)' }),
  previewId: z.string().optional(),
});

export const directoryRunListQuerySchema = z.object({ ...pagingFields(20, 100) });
export const directoryOutcomeListQuerySchema = z.object({
  ...pagingFields(50, 100),
  outcome: z
    .enum(DIRECTORY_LISTED_OUTCOMES as unknown as [DirectoryOutcome, ...DirectoryOutcome[]], {
      error: 'Исход: create, update, suspend, deactivate, reactivate или error',
    })
    .optional(),
});
