import { z } from 'zod';
import './zod-ru';
import { entityIdField } from './content';
import { exportFields } from './exportQuery';
import { pagingFields } from './paging';

/** Data-subject requests (152-FZ, art. 14 and 21): what the portal holds about a person, or forgetting them. */
export const SUBJECT_REQUEST_KINDS = ['export', 'anonymise'] as const;
export type SubjectRequestKind = (typeof SUBJECT_REQUEST_KINDS)[number];
export const SUBJECT_REQUEST_STATUSES = ['open', 'done'] as const;
export type SubjectRequestStatus = (typeof SUBJECT_REQUEST_STATUSES)[number];

export const SUBJECT_REQUEST_LABELS: Record<SubjectRequestKind, string> = {
  export: 'Выгрузка данных',
  anonymise: 'Обезличивание',
};

export const PRIVACY_MSG = {
  kindInvalid: 'Выберите вид запроса: выгрузка данных или обезличивание',
  requestNotFound: 'Запрос не найден',
  alreadyDone: 'Запрос уже выполнен',
  userGone: 'Пользователь не найден',
  notAnonymise: 'Этот запрос — выгрузка данных, а не обезличивание',
  selfAnonymise: 'Нельзя обезличить собственную учётную запись',
  noAct: 'Акт составляется после обезличивания',
  /** 152-FZ: the alias a forgotten person's results keep. */
  alias: 'Удалённый пользователь №{n}',
  actTitle: 'Акт об обезличивании персональных данных № {n}',
} as const;

export const subjectRequestCreateSchema = z.strictObject({
  userId: entityIdField('userId'),
  kind: z.enum(SUBJECT_REQUEST_KINDS, { error: PRIVACY_MSG.kindInvalid }),
});
export type SubjectRequestCreateInput = z.input<typeof subjectRequestCreateSchema>;

export const subjectRequestListQuerySchema = z.object({
  ...pagingFields(20, 100),
  status: z.enum(SUBJECT_REQUEST_STATUSES).optional(),
});

/** GET /api/subject-requests/{id}/export: everything about the person, as JSON or as an XLSX of one sheet per collection. */
export const subjectExportQuerySchema = z.object({
  format: z.enum(['json', 'xlsx', 'csv'], { error: 'Формат выгрузки: json, xlsx или csv' }).default('json'),
  tz: exportFields.tz,
});

export interface SubjectRequest {
  id: string;
  kind: SubjectRequestKind;
  /** The person withdrew their consent, or an ADMIN filed it. */
  reason: 'withdrawal' | 'admin';
  status: SubjectRequestStatus;
  user: { id: string; fullName: string; email: string };
  filedBy: string;
  createdAt: string;
  completedAt: string | null;
  completedBy: string | null;
  /** What anonymisation changed: collection → documents. */
  summary: Record<string, number> | null;
  /** The act (PDF) of an anonymisation, kept with the request. */
  hasAct: boolean;
}
