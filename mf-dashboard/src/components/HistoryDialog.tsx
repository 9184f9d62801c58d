import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import {
  busyMark,
  Button,
  CodeOptions,
  Dialog,
  ExportButtons,
  Field,
  Input,
  Muted,
  Select,
  Spread,
  useDebounced,
} from '@portal/ui';
import {
  AUDIT_ACTIONS,
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITIES,
  AUDIT_ENTITY_LABELS,
  DASHBOARD_MSG,
  type AuditAction,
  type AuditEntity,
} from '@portal/contracts';
import { downloadHistory, fetchHistoryPage, historyKey, type HistoryFilters, type HistoryScope } from '../api/dashboard';
import { readerTimeZone } from '@portal/web-core';
import { shownOf } from '../format';
import { useNow } from '../hooks/useNow';
import { ActivityList } from './ActivityList';

interface HistoryDialogProps {
  open: boolean;
  onClose: () => void;
  scope: HistoryScope;
}

/** Search, action and entity filters, a date range with reset, newest/oldest, a counter, a phrase per record. */
export function HistoryDialog({ open, onClose, scope }: HistoryDialogProps) {
  return (
    <Dialog open={open} title={DASHBOARD_MSG.history} onClose={onClose} wide>
      <History scope={scope} />
    </Dialog>
  );
}

function History({ scope }: { scope: HistoryScope }) {
  const now = useNow();
  const [search, setSearch] = useState('');
  const [action, setAction] = useState<AuditAction | ''>('');
  const [entity, setEntity] = useState<AuditEntity | ''>('');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [sort, setSort] = useState<'newest' | 'oldest'>('newest');
  const settledSearch = useDebounced(search.trim(), 300);

  const filters: HistoryFilters = {
    search: settledSearch || undefined,
    action: action || undefined,
    entity: entity || undefined,
    startDate: startDate || undefined,
    endDate: endDate || undefined,
    sort,
    tz: readerTimeZone(),
  };
  const query = useInfiniteQuery({
    queryKey: historyKey(scope, filters),
    queryFn: ({ pageParam, signal }) => fetchHistoryPage(scope, filters, pageParam, signal),
    initialPageParam: 1,
    // A total the server stopped counting («500+») pages on while pages come back full.
    getNextPageParam: (last, pages) =>
      last.data.length > 0 &&
      (pages.reduce((n, p) => n + p.data.length, 0) < last.total || (!last.totalExact && last.data.length === last.limit))
        ? last.page + 1
        : undefined,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  // A failed history is an empty list, logged only.
  useEffect(() => {
    if (query.error) console.error('Не удалось загрузить историю действий', query.error);
  }, [query.error]);

  const records = query.error ? [] : (query.data?.pages.flatMap((p) => p.data) ?? []);
  const total = query.error ? 0 : (query.data?.pages[0]?.total ?? 0);
  const exact = query.error ? true : (query.data?.pages[0]?.totalExact ?? true);
  const loaded = !query.isPending || !!query.error;
  const busy = query.isFetching && !query.isFetchingNextPage;

  const chooseStart = (value: string) => {
    setStartDate(value);
    if (value && endDate && value > endDate) setEndDate(value);
  };
  const chooseEnd = (value: string) => {
    setEndDate(value);
    if (value && startDate && value < startDate) setStartDate(value);
  };

  return (
    <>
      <Filters role="search">
        <Wide>
          <Field label="Поиск">
            <Input
              type="search"
              value={search}
              placeholder={DASHBOARD_MSG.searchPlaceholder}
              onChange={(e) => setSearch(e.target.value)}
            />
          </Field>
        </Wide>
        <Field label="Действие">
          <Select value={action} onChange={(e) => setAction(e.target.value as AuditAction | '')}>
            <option value="">Все действия</option>
            <CodeOptions codes={AUDIT_ACTIONS} labels={AUDIT_ACTION_LABELS} />
          </Select>
        </Field>
        <Field label="Объект">
          <Select value={entity} onChange={(e) => setEntity(e.target.value as AuditEntity | '')}>
            <option value="">Все объекты</option>
            <CodeOptions codes={AUDIT_ENTITIES} labels={AUDIT_ENTITY_LABELS} />
          </Select>
        </Field>
        <Field label="С даты">
          <Input type="date" value={startDate} max={endDate || undefined} onChange={(e) => chooseStart(e.target.value)} />
        </Field>
        <Field label="По дату">
          <Input type="date" value={endDate} min={startDate || undefined} onChange={(e) => chooseEnd(e.target.value)} />
        </Field>
        <Buttons>
          <Button
            type="button"
            $variant="outline"
            disabled={!startDate && !endDate}
            onClick={() => {
              setStartDate('');
              setEndDate('');
            }}
          >
            {DASHBOARD_MSG.resetDates}
          </Button>
          <Button
            type="button"
            $variant="secondary"
            title="Изменить порядок"
            onClick={() => setSort(sort === 'newest' ? 'oldest' : 'newest')}
          >
            {sort === 'newest' ? `${DASHBOARD_MSG.newestFirst} ↓` : `${DASHBOARD_MSG.oldestFirst} ↑`}
          </Button>
        </Buttons>
      </Filters>

      <Summary>
        <Counter role="status" data-testid="history-counter">
          {loaded ? shownOf(records.length, Math.max(total, records.length), exact) : 'Загрузка...'}
        </Counter>
        <ExportButtons onExport={(format) => downloadHistory(scope, filters, format)} />
      </Summary>

      {/* Focusable, so a keyboard can scroll a long history (axe: scrollable-region-focusable). */}
      <Scroll role="region" aria-label={DASHBOARD_MSG.history} tabIndex={0} aria-busy={busy}>
        {loaded && records.length === 0 ? (
          <Muted>{DASHBOARD_MSG.historyEmpty}</Muted>
        ) : (
          <ActivityList records={records} now={now} detailed label={DASHBOARD_MSG.history} />
        )}
        {query.hasNextPage && !query.error && (
          <More>
            <Button
              type="button"
              $variant="outline"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              {query.isFetchingNextPage ? 'Загрузка...' : DASHBOARD_MSG.loadMore}
            </Button>
          </More>
        )}
      </Scroll>
    </>
  );
}

const Filters = styled.div`
  display: grid;
  gap: 12px;
  grid-template-columns: repeat(4, minmax(0, 1fr));
  align-items: end;
  @media (max-width: 720px) {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }
`;

const Wide = styled.div`
  grid-column: 1 / -1;
`;

const Buttons = styled.div`
  grid-column: 1 / -1;
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  justify-content: flex-end;
`;

const Summary = styled(Spread).attrs({ $gap: 8 })`
  margin: 16px 0 4px;
`;

const Counter = styled.p`
  margin: 0;
  font-size: 14px;
  color: ${({ theme }) => theme.colors.muted};
`;

const Scroll = styled.div`
  overflow-y: auto;
  min-height: 120px;
  max-height: 50vh;
  padding-right: 4px;
  ${busyMark}
`;

const More = styled.div`
  display: flex;
  justify-content: center;
  padding: 12px 0;
`;
