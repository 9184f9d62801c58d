import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { DataTable, Dialog, Muted } from '@portal/ui';
import { REMOTES, useAuth, type RemoteName } from '@portal/web-core';

/** What a build writes beside its entry (packages/webpack-config: version.json). */
interface BuildVersion {
  name: string;
  version: string;
  hash?: string;
  builtAt: string;
}

interface Row {
  /** The folder the part is built in (`shell`, `mf-crm`): for the administrator. */
  part: string;
  build: BuildVersion | null;
}

/** What each part of the portal is, in the words of the people who use it. */
const PART_NAMES: Record<string, string> = {
  shell: 'Оболочка портала и навигация',
  'mf-landing': 'Главная страница и вход',
  'mf-courses': 'Каталог курсов',
  'mf-editor': 'Редактор курсов',
  'mf-player': 'Обучение, тесты и результаты',
  'mf-crm': 'Организации и пользователи',
  'mf-dashboard': 'Главная панель и назначения',
};

const readVersion = async (url: string): Promise<BuildVersion | null> => {
  const res = await fetch(url, { cache: 'no-cache' }).catch(() => null);
  return res?.ok ? ((await res.json().catch(() => null)) as BuildVersion | null) : null;
};

/** The shell's build and each remote's, read where remotes.json says the remote is now. */
async function readVersions(): Promise<Row[]> {
  const res = await fetch('/remotes.json', { cache: 'no-cache' }).catch(() => null);
  const manifest = (res?.ok ? await res.json().catch(() => ({})) : {}) as Partial<Record<RemoteName, string>>;
  const remotes = (Object.keys(REMOTES) as RemoteName[]).map(async (scope) => {
    const entry = manifest[scope];
    return {
      part: REMOTES[scope],
      build: entry ? await readVersion(new URL('version.json', new URL(entry, location.href)).href) : null,
    };
  });
  return Promise.all([readVersion('/version.json').then((build) => ({ part: 'shell', build })), ...remotes]);
}

const builtAt = (iso: string) =>
  new Date(iso).toLocaleString('ru-RU', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

/**
 * «О системе»: the version of the shell and of every remote as deployed now (each is deployed alone),
 * with its build date. The folders and build hashes are for the administrator, who deploys them.
 */
export function AboutDialog({ onClose }: { onClose: () => void }) {
  const { user } = useAuth();
  return (
    <Dialog title="О системе" onClose={onClose} wide>
      <Versions technical={user?.role === 'ADMIN'} />
    </Dialog>
  );
}

export function Versions({ technical }: { technical: boolean }) {
  const [rows, setRows] = useState<Row[] | null>(null);
  useEffect(() => {
    void readVersions().then(setRows);
  }, []);
  if (!rows) return <Muted role="status">Загрузка...</Muted>;
  return (
    <Table>
      <caption>Версии частей портала</caption>
      <thead>
        <tr>
          <th scope="col">Часть</th>
          <th scope="col">Версия</th>
          {technical && <th scope="col">Сборка</th>}
          <th scope="col">Собрана</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ part, build }) => (
          <tr key={part} data-part={part}>
            <th scope="row">
              {PART_NAMES[part] ?? part}
              {technical && (
                <>
                  {' '}
                  <Muted as="code">{part}</Muted>
                </>
              )}
            </th>
            {build ? (
              <>
                <td>{build.version}</td>
                {technical && (
                  <td>
                    <code>{build.hash ?? '—'}</code>
                  </td>
                )}
                <td>{builtAt(build.builtAt)}</td>
              </>
            ) : (
              <td colSpan={technical ? 3 : 2}>нет сведений</td>
            )}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

const Table = styled(DataTable)`
  caption {
    text-align: left;
    margin-bottom: 8px;
    color: ${({ theme }) => theme.colors.muted};
  }
`;
