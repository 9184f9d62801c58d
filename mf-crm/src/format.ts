import { ROLE_LABELS, type Page, type Role } from '@portal/contracts';
import { ApiError } from '@portal/web-core';

const dateFormat = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric' });

/** Dates in ru-RU format: 22.11.2026. */
export const formatDate = (iso: string): string => dateFormat.format(new Date(iso));

const plural = new Intl.PluralRules('ru-RU');
const CONTACT_FORMS: Record<string, string> = { one: 'контакт', few: 'контакта', many: 'контактов', other: 'контакта' };

/** "1 контакт", "3 контакта", "5 контактов". */
export const contactCount = (n: number): string => `${n} ${CONTACT_FORMS[plural.select(n)]}`;

const USER_FORMS: Record<string, string> = {
  one: 'пользователь',
  few: 'пользователя',
  many: 'пользователей',
  other: 'пользователя',
};

/**
 * The directory's counter: every account when nothing narrows the list, otherwise what the search
 * and the role filter found, saying so ("Найдено 3 пользователя с ролью «Куратор» по запросу «анна»").
 */
/**
 * A page's total as people read it: the number, or «более 10 000» when the service stopped counting
 * there (`totalExact: false`, LIST_TOTAL_CAP).
 */
export const totalText = ({ total, totalExact }: Pick<Page<unknown>, 'total' | 'totalExact'>): string =>
  totalExact === false ? `более ${total.toLocaleString('ru-RU')}` : String(total);

export function directoryCount(
  page: Pick<Page<unknown>, 'total' | 'totalExact'>,
  { search, role }: { search: string; role: Role | '' },
): string {
  const total = totalText(page);
  if (!search && !role) return `Все зарегистрированные пользователи: ${total}`;
  const form = plural.select(page.totalExact === false ? 10 : page.total);
  const found = `${form === 'one' ? 'Найден' : 'Найдено'} ${total} ${USER_FORMS[form]}`;
  return [found, role && `с ролью «${ROLE_LABELS[role]}»`, search && `по запросу «${search}»`].filter(Boolean).join(' ');
}

/**
 * The site is stored as typed (no format check: services/crm/README.md «Decisions»); the link always points at the web,
 * so a value like "javascript:..." can never run.
 */
export const siteHref = (site: string): string => (/^https?:\/\//i.test(site) ? site : `https://${site}`);

/** The one alert for a failed create, edit or delete: 'Ошибка: {message}'. */
/** Another person saved the record first (412): the form's copy is stale. */
export const isStale = (err: unknown): boolean => err instanceof ApiError && err.status === 412;
