import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  DIRECTORY_LISTED_OUTCOMES,
  DIRECTORY_OUTCOME_LABELS,
  DIRECTORY_RUN_STATUS_LABELS,
  ROLE_LABELS,
  type DirectoryConfig,
  type DirectoryOutcome,
  type DirectoryRun,
  type DirectoryRunMode,
} from '@portal/contracts';
import {
  Badge,
  Button,
  DataTable,
  Facts,
  FilterSelect,
  LoadError,
  Loading,
  Muted,
  Page,
  PagedList,
  TableHead,
  TableScroll,
  useToast,
  type BadgeTone,
} from '@portal/ui';
import {
  directoryKeys,
  fetchDirectoryConfig,
  fetchDirectoryRuns,
  fetchRunPeople,
  startDirectoryRun,
} from '../../api/directorySync';
import { useReadAgain } from '@portal/web-core/query';
import { RecordCard, RecordList } from '../../components/RecordCards';
import { formatDate } from '../../format';

const MODE_LABELS: Record<DirectoryRunMode, string> = { preview: 'Предпросмотр', apply: 'Применение' };
const STATUS_TONES: Record<DirectoryRun['status'], BadgeTone> = {
  queued: 'muted',
  running: 'primary',
  done: 'success',
  failed: 'danger',
};
/** While a run is queued or going, the list asks again this often. */
const POLL_MS = 2_000;

const countsText = (run: DirectoryRun) =>
  [
    `прочитано ${run.read} (страниц: ${run.pages})`,
    ...(['create', 'update', 'same', 'suspend', 'deactivate', 'reactivate', 'error'] as const).map(
      (o) => `${DIRECTORY_OUTCOME_LABELS[o].toLowerCase()}: ${run.counts[o]}`,
    ),
  ].join(' · ');

/** /crm/directory-sync (ADMIN): the LDAP / AD sync's configuration, its runs, a preview and an apply. */
export function DirectorySync() {
  const config = useQuery({ queryKey: directoryKeys.config, queryFn: ({ signal }) => fetchDirectoryConfig(signal) });
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<DirectoryRun | null>(null);
  const runs = useQuery({
    queryKey: directoryKeys.runs(page),
    queryFn: ({ signal }) => fetchDirectoryRuns(page, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.data.some((r) => r.status === 'queued' || r.status === 'running') ? POLL_MS : false,
  });
  const refresh = useReadAgain();
  const toast = useToast();
  const start = useMutation({
    mutationFn: ({ mode, previewId }: { mode: DirectoryRunMode; previewId?: string }) => startDirectoryRun(mode, previewId),
    onSuccess: async (run) => {
      toast.show(run.mode === 'preview' ? 'Предпросмотр поставлен в очередь' : 'Применение поставлено в очередь');
      setPage(1);
      await refresh(directoryKeys.all);
    },
    onError: (err) => toast.failed(err, 'Не удалось запустить синхронизацию'),
  });
  const latest = page === 1 ? runs.data?.data[0] : undefined;
  const lastPreview = latest?.mode === 'preview' && latest.status === 'done' ? latest : undefined;
  const enabled = !!config.data?.enabled;

  return (
    <Page data-mf="mf_crm">
      <h1>Синхронизация с каталогом (LDAP)</h1>
      <Muted>
        Сотрудники из корпоративного каталога (Active Directory или OpenLDAP): новые получают учётную запись, изменения
        подразделения, должности и роли переносятся, ушедшие и отключённые приостанавливаются и после льготного срока
        деактивируются. Никто не удаляется. Каждый запуск можно сначала посмотреть как предпросмотр.
      </Muted>

      <Section aria-labelledby="directory-config">
        <h2 id="directory-config">Настройки</h2>
        {config.isPending ? (
          <Loading />
        ) : config.isError ? (
          <LoadError title="Не удалось загрузить настройки" error={config.error} onRetry={() => void config.refetch()} />
        ) : (
          <ConfigFacts config={config.data} />
        )}
      </Section>

      <Actions>
        <Button type="button" disabled={!enabled || start.isPending} onClick={() => start.mutate({ mode: 'preview' })}>
          Предпросмотр
        </Button>
        <Button
          type="button"
          $variant="destructive"
          disabled={!enabled || start.isPending}
          onClick={() => start.mutate({ mode: 'apply', previewId: lastPreview?.id })}
        >
          {lastPreview ? 'Применить предпросмотр' : 'Применить'}
        </Button>
        {lastPreview && <Muted>Применение читает каталог заново: изменения с момента предпросмотра тоже войдут.</Muted>}
      </Actions>

      <Section aria-labelledby="directory-runs">
        <h2 id="directory-runs">Запуски</h2>
        <PagedList
          query={runs}
          failed="Не удалось загрузить запуски"
          empty={<Muted>Запусков ещё не было</Muted>}
          onPage={setPage}
        >
          {(rows, busy) => (
            <RecordList aria-busy={busy}>
              {rows.map((run) => (
                <RunCard
                  key={run.id}
                  aria-label={`${MODE_LABELS[run.mode]} от ${formatDate(run.createdAt)}`}
                  data-testid="directory-run"
                >
                  <div>
                    <strong>{MODE_LABELS[run.mode]}</strong> · {formatDate(run.createdAt)} ·{' '}
                    {run.trigger === 'schedule' ? 'по расписанию' : (run.by?.fullName ?? 'администратор')}
                    {run.status === 'done' && <Muted>{countsText(run)}</Muted>}
                    {run.error && <Muted role="alert">{run.error}</Muted>}
                  </div>
                  <Badge $tone={STATUS_TONES[run.status]}>{DIRECTORY_RUN_STATUS_LABELS[run.status]}</Badge>
                  {run.status === 'done' && (
                    <div>
                      <Button type="button" $variant="outline" $size="sm" onClick={() => setShown(run)}>
                        Сотрудники запуска
                      </Button>
                    </div>
                  )}
                </RunCard>
              ))}
            </RecordList>
          )}
        </PagedList>
      </Section>

      {shown && <RunPeople key={shown.id} run={shown} onClose={() => setShown(null)} />}
    </Page>
  );
}

function ConfigFacts({ config }: { config: DirectoryConfig }) {
  if (!config.enabled)
    return (
      <Muted>
        Синхронизация не настроена: задайте LDAP_URL, LDAP_BIND_DN, пароль учётной записи синхронизации и LDAP_BASE_DN в
        конфигурации сервиса учётных записей.
      </Muted>
    );
  const a = config.attributes;
  return (
    <Facts
      facts={[
        ['Сервер', config.url],
        ['Учётная запись', config.bindDn || '—'],
        ['Пароль', config.bindPasswordSet ? 'задан (не показывается)' : 'не задан'],
        ['База поиска', config.baseDn || '—'],
        ['Фильтр', config.filter],
        ['Записей на странице', String(config.pageSize)],
        ['Идентификатор', a.id],
        [
          'Атрибуты',
          `фамилия ${a.lastName}, имя ${a.firstName}, отчество ${a.middleName}, email ${a.email}, подразделение ${a.department}, должность ${a.position}, группы ${a.groups}, отключён ${a.disabled}`,
        ],
        [
          'Группы и роли',
          config.groupRoles.length ? config.groupRoles.map((g) => `${g.group} → ${ROLE_LABELS[g.role]}`).join('; ') : 'не заданы',
        ],
        ['Роль по умолчанию', ROLE_LABELS[config.defaultRole]],
        ['Период', config.everyMinutes ? `каждые ${config.everyMinutes} мин.` : 'только вручную'],
        ['Льготный срок', `${config.graceDays} дн.`],
      ]}
    />
  );
}

/** One run's people (all but «без изменений»), paged, optionally of one outcome. */
function RunPeople({ run, onClose }: { run: DirectoryRun; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const [outcome, setOutcome] = useState<DirectoryOutcome | ''>('');
  const people = useQuery({
    queryKey: directoryKeys.people(run.id, page, outcome),
    queryFn: ({ signal }) => fetchRunPeople(run.id, page, outcome, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <Section aria-labelledby="directory-people">
      <Heading>
        <h2 id="directory-people">
          {MODE_LABELS[run.mode]} от {formatDate(run.createdAt)}: сотрудники
        </h2>
        <Button type="button" $variant="ghost" $size="sm" onClick={onClose}>
          Скрыть
        </Button>
      </Heading>
      <Filter>
        <FilterSelect
          label="Фильтр по исходу"
          value={outcome}
          onValue={(value) => {
            setOutcome(value);
            setPage(1);
          }}
          anyLabel="Все исходы"
          options={DIRECTORY_LISTED_OUTCOMES}
          labels={DIRECTORY_OUTCOME_LABELS}
        />
      </Filter>
      <PagedList query={people} failed="Не удалось загрузить сотрудников" empty={<Muted>Изменений нет</Muted>} onPage={setPage}>
        {(rows) => (
          <TableScroll aria-label="Сотрудники запуска">
            <DataTable>
              <TableHead columns={['Исход', 'ФИО', 'Email', 'Подразделение', 'Должность', 'Роль', 'Что меняется']} />
              <tbody>
                {rows.map((p) => (
                  <tr key={`${p.directoryId}-${p.email}`} data-testid="directory-person">
                    <td>{DIRECTORY_OUTCOME_LABELS[p.outcome]}</td>
                    <td>{p.fullName}</td>
                    <td>{p.email}</td>
                    <td>{p.department}</td>
                    <td>{p.position}</td>
                    <td>{p.role ? ROLE_LABELS[p.role] : ''}</td>
                    <td>{p.reason}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          </TableScroll>
        )}
      </PagedList>
    </Section>
  );
}

const Section = styled.section`
  margin: 24px 0;
`;
const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: center;
`;
const Heading = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: center;
  justify-content: space-between;
`;
const Filter = styled.div`
  margin: 12px 0;
  max-width: 240px;
`;
const RunCard = styled(RecordCard)`
  & > div:nth-child(3) {
    grid-column: 1 / -1;
  }
`;
