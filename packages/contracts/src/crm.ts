import { z } from 'zod';
import './zod-ru';
import { MSG } from './messages';
import { emailField, requiredText } from './auth';
import { exportFields } from './exportQuery';
import { pagingFields } from './paging';
import { URL_MSG, isSiteUrl } from './urls';
import { innSchema, kppSchema, ogrnSchema } from './requisites';
import type { FigureBounds } from './dashboard';

/** Organization status: set freely among the three; new ones are ACTIVE. */
export const ORG_STATUSES = ['ACTIVE', 'INACTIVE', 'PENDING'] as const;
export type OrgStatus = (typeof ORG_STATUSES)[number];
export const DEFAULT_ORG_STATUS: OrgStatus = 'ACTIVE';

export const ORG_STATUS_LABELS: Record<OrgStatus, string> = {
  ACTIVE: 'Активна',
  INACTIVE: 'Неактивна',
  PENDING: 'На рассмотрении',
};

/** CRM texts of the screens, the validation rules and the error catalogue, plus the server's own refusals, quoted once. */
export const CRM_MSG = {
  orgNotFound: 'Организация не найдена',
  contactNotFound: 'Контакт не найден',
  innTaken: 'Организация с таким ИНН уже существует',
  contactEmailTaken: 'Контакт с таким email уже есть в этой организации',
  orgIdMissing: 'Не указана организация',
  statusInvalid: 'Недопустимый статус организации',
  phoneInvalid: 'Некорректный номер телефона',
  nothingToUpdate: 'Нет данных для изменения',
  // Client texts (the screens and their alerts).
  orgsEmpty: 'Организации не найдены',
  usersEmpty: 'Пользователи не найдены',
  orgsLoadError: 'Ошибка загрузки организаций',
  orgLoadError: 'Ошибка загрузки организации',
  usersLoadError: 'Ошибка загрузки пользователей',
  confirmDeleteOrg: 'Вы уверены, что хотите удалить организацию "{name}"?',
  confirmDeleteContact: 'Вы уверены, что хотите удалить контакт "{name}"?',
  mutationFailed: 'Ошибка: {message}',
  createOrgFailed: 'Ошибка создания организации',
  updateOrgFailed: 'Ошибка обновления организации',
  deleteOrgFailed: 'Ошибка удаления организации',
  createContactFailed: 'Ошибка создания контакта',
  updateContactFailed: 'Ошибка обновления контакта',
  deleteContactFailed: 'Ошибка удаления контакта',
  updateUserFailed: 'Ошибка обновления пользователя',
} as const;

/** Optional free text: blank becomes null, so "no site" is stored one way. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

const siteText = optionalText(500).refine((v) => v === null || isSiteUrl(v), URL_MSG.siteInvalid);

const status = z.enum(ORG_STATUSES, { error: CRM_MSG.statusInvalid });

export const organizationCreateSchema = z.object({
  name: requiredText(MSG.fillRequired, 300),
  inn: innSchema,
  kpp: kppSchema,
  ogrn: ogrnSchema,
  // No format is set for a site; the CRM shows it as a link, so it must be a web address (a bare host reads as https).
  site: siteText,
  status: status.default(DEFAULT_ORG_STATUS),
});
export type OrganizationCreateInput = z.input<typeof organizationCreateSchema>;

/** An edit may send any of the fields; name and inn, when sent, may not be blank. */
export const organizationUpdateSchema = z
  .object({
    name: requiredText(MSG.fillRequired, 300).optional(),
    inn: innSchema.optional(),
    kpp: kppSchema.optional(),
    ogrn: ogrnSchema.optional(),
    site: siteText.optional(),
    status: status.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: CRM_MSG.nothingToUpdate });
export type OrganizationUpdateInput = z.input<typeof organizationUpdateSchema>;

export const organizationListQuerySchema = z.object({
  ...pagingFields(24),
  search: z.string().trim().max(200).optional(),
  status: status.optional(),
});
export type OrganizationListQuery = z.input<typeof organizationListQuerySchema>;

/** GET /api/organizations/export: the list's search and status filter, one row per contact, CSV or XLSX. */
export const organizationExportQuerySchema = organizationListQuerySchema.omit({ page: true, limit: true }).extend(exportFields);

const contactEmail = emailField(MSG.fillRequired);

// Digits with the usual separators and an optional leading plus: "+7 (999) 123-45-67".
const phone = z
  .string()
  .trim()
  .max(40, CRM_MSG.phoneInvalid)
  .refine((v) => v === '' || /^\+?[\d\s().-]{3,}$/.test(v), CRM_MSG.phoneInvalid)
  .nullish()
  .transform((v) => (v ? v : null));

const contactFields = {
  fullName: requiredText(MSG.fillRequired, 200),
  email: contactEmail,
  phone,
  /** Job title (the spec's contact field is called role). */
  role: optionalText(200),
};

export const contactCreateSchema = z.object({
  ...contactFields,
  orgId: z.string({ error: CRM_MSG.orgIdMissing }).trim().min(1, CRM_MSG.orgIdMissing),
});
export type ContactCreateInput = z.input<typeof contactCreateSchema>;

export const contactUpdateSchema = z
  .object({
    fullName: contactFields.fullName.optional(),
    email: contactEmail.optional(),
    phone: phone.optional(),
    role: optionalText(200).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: CRM_MSG.nothingToUpdate });
export type ContactUpdateInput = z.input<typeof contactUpdateSchema>;

export interface Contact {
  id: string;
  orgId: string;
  fullName: string;
  email: string;
  phone: string | null;
  role: string | null;
  /** Optimistic concurrency: send it back (If-Match or `version`) with a write; 412 when stale. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface Organization {
  id: string;
  name: string;
  inn: string;
  /** КПП (9 characters), or null. */
  kpp: string | null;
  /** ОГРН (13 digits) or ОГРНИП (15), or null. */
  ogrn: string | null;
  site: string | null;
  status: OrgStatus;
  /** Optimistic concurrency: send it back (If-Match or `version`) with a write; 412 when stale. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface OrganizationListItem extends Organization {
  _count: { contacts: number };
}

export interface OrganizationDetail extends Organization {
  contacts: Contact[];
  _count: { contacts: number };
}

export interface PeriodChange {
  last30: number;
  prev30: number;
  /** False when a window was counted to LIST_TOTAL_CAP and stopped: no change can be told. */
  exact?: false;
}

/** GET /internal/stats of the crm service, for the dashboard. */
export interface CrmStats extends FigureBounds {
  organizations: number;
  contacts: number;
  change: { organizations: PeriodChange; contacts: PeriodChange };
}
