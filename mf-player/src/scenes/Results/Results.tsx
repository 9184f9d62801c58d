import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import styled from 'styled-components';
import {
  CANDIDATE_LINK_MSG,
  PROGRESS_MSG,
  RESULT_FILTER_STATUSES,
  REVIEW_MSG,
  STUDY_ROLES,
  isStaff,
  type ResultFilterStatus,
} from '@portal/contracts';
import {
  Button,
  Card,
  CodeOptions,
  DataTable,
  EmptyState,
  ExportButtons,
  Input,
  LoadError,
  Loading,
  Page,
  PageHeader,
  Pager,
  ProgressBar,
  RecordOptions,
  Select,
  useDebounced,
} from '@portal/ui';
import { navigate, paths, useAuth, useSearch } from '@portal/web-core';
import {
  RESULTS_KEY,
  downloadResults,
  fetchResultCourses,
  fetchResults,
  type ResultsFilters,
  type ResultsParams,
} from '../../api/player';
import { AttemptDetailsDialog } from '../../components/AttemptDetailsDialog';
import { ResultBadge, ViaLinkBadge } from '../../components/Badges';
import { MyCertificates } from '../../components/MyCertificates';
import { ScormResults } from './ScormResults';

const STATUS_FILTERS = ['all', ...RESULT_FILTER_STATUSES] as const;
const STATUS_FILTER_LABELS: Record<ResultFilterStatus | 'all', string> = {
  all: PROGRESS_MSG.statusAll,
  passed: PROGRESS_MSG.statusPassed,
  failed: PROGRESS_MSG.statusFailed,
  pending: PROGRESS_MSG.statusPending,
};
const when = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeStyle: 'short' });

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters and the page as the address gives them (a reload, a shared link, the back button). */
const fromUrl = () => {
  const q = new URLSearchParams(window.location.search);
  const status = q.get('status') ?? 'all';
  const page = Number(q.get('page'));
  const day = (name: string) => (DAY.test(q.get(name) ?? '') ? (q.get(name) as string) : '');
  return {
    search: q.get('search') ?? '',
    status: (RESULT_FILTER_STATUSES as readonly string[]).includes(status) ? (status as ResultFilterStatus) : ('all' as const),
    period: {
      courseId: /^[0-9a-f]{24}$/.test(q.get('courseId') ?? '') ? (q.get('courseId') as string) : '',
      from: day('from'),
      to: day('to'),
    },
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
};

/** Writes the filters back into the address (other parameters, such as `section`, stay). */
function useFiltersInUrl(filters: { search: string; status: string; courseId: string; from: string; to: string; page: number }) {
  useEffect(() => {
    const q = new URLSearchParams(window.location.search);
    for (const [name, value] of Object.entries(filters)) {
      const empty = value === '' || value === 'all' || (name === 'page' && value === 1);
      if (empty) q.delete(name);
      else q.set(name, String(value));
    }
    const next = `${window.location.pathname}${q.size ? `?${q}` : ''}`;
    if (next !== `${window.location.pathname}${window.location.search}`)
      window.history.replaceState(window.history.state, '', next);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- by value
  }, [JSON.stringify(filters)]);
}

/** /results, from the server (docs/decisions/037): a learner's own attempts, or everyone's for ADMIN and CURATOR. */
export function Results() {
  const { user } = useAuth();
  const certificatesAsked = new URLSearchParams(useSearch()).get('section') === 'certificates';
  const [initial] = useState(fromUrl);
  const [search, setSearch] = useState(initial.search);
  const [status, setStatus] = useState<ResultFilterStatus | 'all'>(initial.status);
  const [period, setPeriod] = useState(initial.period);
  const [page, setPage] = useState(initial.page);
  const [openId, setOpenId] = useState<string | null>(null);
  const debounced = useDebounced(search);
  const filters: ResultsFilters = { search: debounced, status, ...period };
  const params: ResultsParams = { ...filters, page };
  useFiltersInUrl({ search: debounced, status, ...period, page });
  const courses = useQuery({ queryKey: ['player', 'result-courses'], queryFn: ({ signal }) => fetchResultCourses(signal) });
  const narrow = (patch: Partial<typeof period>) => {
    setPeriod((p) => ({ ...p, ...patch }));
    setPage(1);
  };

  const results = useQuery({
    queryKey: [...RESULTS_KEY, params],
    queryFn: ({ signal }) => fetchResults(params, signal),
    placeholderData: keepPreviousData,
    enabled: !!user,
  });

  const filtering = !!debounced.trim() || status !== 'all' || !!period.courseId || !!period.from || !!period.to;
  const data = results.data;
  const summary = data?.summary;

  return (
    <Page data-mf="mf_player">
      <Header>
        <h1>{PROGRESS_MSG.resultsTitle}</h1>
        {user && isStaff(user.role) && (
          <Button type="button" $variant="outline" onClick={() => navigate(paths.reviews())}>
            {REVIEW_MSG.title}
          </Button>
        )}
        {user && isStaff(user.role) && (
          <Button type="button" $variant="outline" onClick={() => navigate(paths.candidateLinks())}>
            {CANDIDATE_LINK_MSG.screenTitle}
          </Button>
        )}
        <ExportButtons onExport={(format) => downloadResults(format, filters)} failedText={PROGRESS_MSG.exportFailed} />
      </Header>

      {user && STUDY_ROLES.includes(user.role) && <MyCertificates opened={certificatesAsked} />}

      <Toolbar role="search">
        <Input
          type="search"
          placeholder={PROGRESS_MSG.resultsSearch}
          aria-label={PROGRESS_MSG.resultsSearch}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
        <Select
          aria-label="Фильтр по статусу"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as ResultFilterStatus | 'all');
            setPage(1);
          }}
        >
          <CodeOptions codes={STATUS_FILTERS} labels={STATUS_FILTER_LABELS} />
        </Select>
        <Select aria-label="Фильтр по курсу" value={period.courseId} onChange={(e) => narrow({ courseId: e.target.value })}>
          <RecordOptions records={courses.data} loading={courses.isPending} placeholder="Все курсы" />
        </Select>
        <Input
          type="date"
          aria-label="Период: с"
          title="Период: с"
          value={period.from}
          max={period.to || undefined}
          onChange={(e) => narrow({ from: e.target.value })}
        />
        <Input
          type="date"
          aria-label="Период: по"
          title="Период: по"
          value={period.to}
          min={period.from || undefined}
          onChange={(e) => narrow({ to: e.target.value })}
        />
      </Toolbar>

      <Summary aria-label="Сводка">
        <Stat label={PROGRESS_MSG.totalAttempts} value={summary?.total} />
        <Stat label={PROGRESS_MSG.passedCount} value={summary?.passed} />
        <Stat label={PROGRESS_MSG.failedCount} value={summary?.failed} />
        <Stat label={PROGRESS_MSG.pendingCount} value={summary?.pending} />
        {/* No attempt has no average: «—», not «0%». */}
        <Stat label={PROGRESS_MSG.averagePercent} value={summary?.total ? `${summary.averagePercentage}%` : undefined} />
      </Summary>

      {results.isPending ? (
        <Loading />
      ) : results.isError && !data ? (
        <LoadError title={PROGRESS_MSG.resultsLoadFailed} error={results.error} onRetry={() => void results.refetch()} />
      ) : !data || data.data.length === 0 ? (
        <EmptyState
          title={filtering ? PROGRESS_MSG.resultsNotFound : PROGRESS_MSG.noResults}
          hint={filtering ? PROGRESS_MSG.resultsNotFoundHint : undefined}
        />
      ) : (
        <>
          <TableWrap>
            <Table aria-busy={results.isFetching}>
              <thead>
                <tr>
                  <th scope="col">Имя</th>
                  <th scope="col">Курс</th>
                  <th scope="col">Квиз</th>
                  <th scope="col">Баллы</th>
                  <th scope="col">Процент</th>
                  <th scope="col">Попытка</th>
                  <th scope="col">Дата и время</th>
                  <th scope="col">Статус</th>
                  <th scope="col">Действие</th>
                </tr>
              </thead>
              <tbody>
                {data.data.map((a) => (
                  <tr key={a.id}>
                    <td>
                      {a.userName} {a.viaLink && <ViaLinkBadge />}
                    </td>
                    <td>{a.courseTitle}</td>
                    <td>{a.quizTitle}</td>
                    <td>
                      {a.score}/{a.maxScore}
                    </td>
                    <td>
                      <Percent>
                        <ProgressBar
                          value={a.percentage}
                          name={`${a.percentage}%`}
                          tone={(a.pendingReviews ?? 0) > 0 ? 'primary' : a.status === 'passed' ? 'success' : 'danger'}
                          size="sm"
                        />
                        <span>{a.percentage}%</span>
                      </Percent>
                    </td>
                    <td>{a.attemptNumber}</td>
                    <td>{a.completedAt ? when.format(new Date(a.completedAt)) : '—'}</td>
                    <td>
                      <ResultBadge status={a.status} pendingReviews={a.pendingReviews} />
                    </td>
                    <td>
                      <Button
                        type="button"
                        $variant="outline"
                        $size="sm"
                        onClick={() => setOpenId(a.id)}
                        aria-label={`${PROGRESS_MSG.details}: ${a.quizTitle}, попытка ${a.attemptNumber}`}
                      >
                        {PROGRESS_MSG.details}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </TableWrap>
          {data && <Pager of={data} onPage={setPage} />}
        </>
      )}

      {/* The SCORM lessons' attempts narrow by course only: the search, status and dates are the quizzes'. */}
      {!debounced.trim() && status === 'all' && !period.from && !period.to && <ScormResults courseId={period.courseId} />}

      {openId && <AttemptDetailsDialog attemptId={openId} onClose={() => setOpenId(null)} />}
    </Page>
  );
}

function Stat({ label, value }: { label: string; value: number | string | undefined }) {
  return (
    <StatCard>
      <span>{label}</span>
      <strong>{value ?? '—'}</strong>
    </StatCard>
  );
}

const Header = styled(PageHeader)`
  margin-bottom: 16px;
`;
const Toolbar = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr) repeat(2, minmax(0, 200px)) repeat(2, minmax(0, 160px));
  gap: 12px;
  margin-bottom: 16px;
  @media (max-width: 1024px) {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }
  @media (max-width: 640px) {
    grid-template-columns: 1fr;
  }
`;
const Summary = styled.section`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(160px, 1fr));
  gap: 12px;
  margin-bottom: 20px;
`;
const StatCard = styled(Card)`
  display: grid;
  gap: 4px;
  padding: 16px;
  span {
    font-size: 13px;
    color: ${({ theme }) => theme.colors.muted};
  }
  strong {
    font-size: 26px;
  }
`;
const TableWrap = styled.div`
  overflow-x: auto;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surface};
`;
const Table = styled(DataTable)`
  th,
  td {
    padding: 10px 12px;
    vertical-align: middle;
  }
  th {
    font-size: 12px;
    text-transform: uppercase;
    letter-spacing: 0.03em;
    color: ${({ theme }) => theme.colors.muted};
    white-space: nowrap;
  }
  tbody tr:last-child td {
    border-bottom: 0;
  }
  /* «Действие» stays in sight while the other columns scroll sideways. */
  th:last-child,
  td:last-child {
    position: sticky;
    right: 0;
    background: ${({ theme }) => theme.colors.surface};
  }
`;
const Percent = styled.div`
  display: grid;
  grid-template-columns: 80px auto;
  align-items: center;
  gap: 8px;
`;
