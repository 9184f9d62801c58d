import { ROLE_LABELS, type Page, type Role, ruCount, ruForm } from '@portal/contracts';
import { ApiError } from '@portal/web-core';

const dateFormat = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric' });

/** Dates in ru-RU format: 22.11.2026. */
export const formatDate = (iso: string): string => dateFormat.format(new Date(iso));

const CONTACT_FORMS = { one: 'контакт', few: 'контакта', many: 'контактов' };

/** "1 контакт", "3 контакта", "5 контактов". */
export const contactCount = (n: number): string => ruCount(n, CONTACT_FORMS);

const USER_FORMS = { one: 'пользователь', few: 'пользователя', many: 'пользователей' };

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
  const counted = page.totalExact === false ? 10 : page.total;
  const found = `${ruForm(counted, { one: 'Найден', few: 'Найдено', many: 'Найдено' })} ${total} ${ruForm(counted, USER_FORMS)}`;
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
