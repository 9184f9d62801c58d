import {
  AdminLimitExceededError,
  Client,
  InvalidCredentialsError,
  NoSuchObjectError,
  SizeLimitExceededError,
  type Entry,
} from 'ldapts';
import { DIRECTORY_MSG, formatMessage } from '@portal/contracts';
import type { DirectorySettings } from './settings';

/** One entry of the directory as the sync reads it. */
export interface DirectoryPerson {
  /** The stable id (entryUUID; objectGUID as hex); '' when the entry has none. */
  id: string;
  dn: string;
  email: string;
  lastName: string;
  firstName: string;
  middleName: string;
  department: string;
  position: string;
  groups: string[];
  disabled: boolean;
}

/** A failure to read the directory: its message is the run's (Russian, with no secret in it). */
export class DirectoryReadError extends Error {}

const first = (value: Entry[string] | undefined): string => {
  const one = Array.isArray(value) ? value[0] : value;
  if (one === undefined) return '';
  return (Buffer.isBuffer(one) ? one.toString('utf8') : String(one)).trim();
};
const all = (value: Entry[string] | undefined): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) =>
    Buffer.isBuffer(v) ? v.toString('utf8') : String(v),
  );

/** Binary ids (AD's objectGUID) are read as bytes and kept as hex; text ids as they are. */
const BINARY_IDS = new Set(['objectguid', 'objectsid']);

/** Why a network or protocol failure happened, in words an administrator acts on (never the password). */
function reasonOf(err: unknown): string {
  if (err instanceof AdminLimitExceededError || err instanceof SizeLimitExceededError)
    return 'сервер ограничивает размер страницы: уменьшите LDAP_PAGE_SIZE (AD отдаёт не больше 1000 записей)';
  if (err instanceof NoSuchObjectError) return 'базы поиска LDAP_BASE_DN нет в каталоге';
  const code = (err as { code?: unknown }).code;
  if (code === 'ECONNREFUSED') return 'соединение отклонено';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'соединение разорвано сервером';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'адрес сервера не найден';
  const message = err instanceof Error ? err.message : String(err);
  if (/timeout|timed out/i.test(message)) return 'сервер не ответил вовремя';
  if (/closed|socket|connection/i.test(message)) return 'соединение разорвано сервером';
  return `ошибка LDAP (${(err as { constructor?: { name?: string } }).constructor?.name ?? 'неизвестная'})`;
}

/**
 * Reads every person in scope, page by page (the paged-results control: AD answers 1,000 a page).
 * Nothing is computed until the last page is in: a failure anywhere ends the read with a
 * DirectoryReadError and no result, so a run that fails changes nobody.
 */
export async function readDirectory(settings: DirectorySettings): Promise<{ people: DirectoryPerson[]; pages: number }> {
  // Operations are timed here, not by the client's `timeout`: its timer of an unbind outlives the
  // connection (and would hold the process that long).
  const client = new Client({ url: settings.url, connectTimeout: settings.timeoutMs });
  const timed = <T>(operation: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('LDAP operation timed out')), settings.timeoutMs);
    });
    return Promise.race([operation, late]).finally(() => clearTimeout(timer));
  };
  const a = settings.attributes;
  const binaryId = BINARY_IDS.has(a.id.toLowerCase());
  const people: DirectoryPerson[] = [];
  let pages = 0;
  try {
    try {
      await timed(client.bind(settings.bindDn, settings.bindPassword));
    } catch (err) {
      if (err instanceof InvalidCredentialsError) throw new DirectoryReadError(DIRECTORY_MSG.bindFailed);
      throw new DirectoryReadError(formatMessage(DIRECTORY_MSG.unreachable, { reason: reasonOf(err) }));
    }
    try {
      const search = client.searchPaginated(settings.baseDn, {
        scope: 'sub',
        filter: settings.filter,
        attributes: [a.id, a.lastName, a.firstName, a.middleName, a.email, a.department, a.position, a.groups, a.disabled],
        explicitBufferAttributes: binaryId ? [a.id] : [],
        paged: { pageSize: settings.pageSize },
      });
      for (;;) {
        const next = await timed(search.next());
        if (next.done) break;
        const page = next.value;
        pages += 1;
        for (const entry of page.searchEntries) {
          const rawId = entry[a.id];
          const idValue = Array.isArray(rawId) ? rawId[0] : rawId;
          const flags = Number(first(entry[a.disabled]) || 0);
          people.push({
            id: binaryId && Buffer.isBuffer(idValue) ? idValue.toString('hex') : first(rawId),
            dn: entry.dn,
            email: first(entry[a.email]).toLowerCase(),
            lastName: first(entry[a.lastName]),
            firstName: first(entry[a.firstName]),
            middleName: first(entry[a.middleName]),
            department: first(entry[a.department]),
            position: first(entry[a.position]),
            groups: all(entry[a.groups]),
            // AD's userAccountControl: bit 2 (ACCOUNTDISABLE).
            disabled: Number.isFinite(flags) && (flags & 2) === 2,
          });
        }
      }
    } catch (err) {
      if (err instanceof DirectoryReadError) throw err;
      throw new DirectoryReadError(formatMessage(DIRECTORY_MSG.searchFailed, { reason: reasonOf(err) }));
    }
  } finally {
    // Not awaited: the server need not answer an unbind, and the socket is closed either way.
    void client.unbind().catch(() => undefined);
  }
  return { people, pages };
}
