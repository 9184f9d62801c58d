import { useCallback, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import styled from 'styled-components';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Page as ListPage } from '@portal/contracts';
import { busyMark, Input, Select } from './components';
import { CodeOptions } from './Field';
import { Pager } from './Pager';
import { LoadError, Loading } from './states';

/** A server-paged list's filters and its page: a new filter value goes back to page 1. */
export function usePagedFilters<F extends object>(initial: F) {
  const [filters, setFilters] = useState(initial);
  const [page, setPage] = useState(1);
  const setFilter = useCallback(<K extends keyof F>(key: K, value: F[K]) => {
    setFilters((current) => ({ ...current, [key]: value }));
    setPage(1);
  }, []);
  /** What a `FilterInput` or `FilterSelect` over one filter takes: `<FilterInput label="…" {...filterProps('search')} />`. */
  const filterProps = <K extends keyof F>(key: K) => ({ value: filters[key], onValue: (value: F[K]) => setFilter(key, value) });
  return { filters, setFilter, filterProps, page, setPage };
}

export interface FilterInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  /** The accessible name (a filter bar has no visible labels). */
  label: string;
  value: string;
  onValue: (value: string) => void;
}

/** A list's text filter: a labelled box that hands over each new value. */
export function FilterInput({ label, onValue, ...rest }: FilterInputProps) {
  return <Input aria-label={label} onChange={(e) => onValue(e.target.value)} {...rest} />;
}

export interface FilterSelectProps<V extends string> {
  label: string;
  value: V | '';
  onValue: (value: V | '') => void;
  /** The first option, value '': «Все …». Absent when the list has no «any». */
  anyLabel?: string;
  /** The codes to choose from, in order, each said by its label. */
  options: readonly V[];
  labels: Record<V, string>;
  className?: string;
}

/** A list's select filter: a labelled select over a closed list of codes, maybe with «any» first. */
export function FilterSelect<V extends string>({
  label,
  value,
  onValue,
  anyLabel,
  options,
  labels,
  className,
}: FilterSelectProps<V>) {
  return (
    <Select aria-label={label} value={value} className={className} onChange={(e) => onValue(e.target.value as V | '')}>
      {anyLabel !== undefined && <option value="">{anyLabel}</option>}
      <CodeOptions codes={options} labels={labels} />
    </Select>
  );
}

export interface PagedListProps<T> {
  /** The page's query: while another page or filter loads, the rows on screen stay (`keepPreviousData`). */
  query: UseQueryResult<ListPage<T>>;
  /** What the list says when it is empty. */
  empty: ReactNode;
  /** A failed read: the title of the kit's `LoadError` (with the reason and «Повторить»), or what to show instead. */
  failed: string | ((error: unknown, retry: () => void) => ReactNode);
  onPage: (page: number) => void;
  /** The rows, and whether a newer page is on its way (for `aria-busy`). */
  children: (rows: T[], busy: boolean) => ReactNode;
}

/** A list paged on the server: loading, the failure with «Повторить», the empty text, or the rows and the pager. */
export function PagedList<T>({ query, empty, failed, onPage, children }: PagedListProps<T>) {
  const retry = () => void query.refetch();
  if (query.isPending) return <Loading />;
  if (query.isError)
    return typeof failed === 'string' ? (
      <LoadError title={failed} error={query.error} onRetry={retry} />
    ) : (
      <>{failed(query.error, retry)}</>
    );
  const rows = query.data.data;
  if (!rows.length) return <>{empty}</>;
  return (
    <>
      {children(rows, query.isFetching)}
      <Pager of={query.data} onPage={onPage} />
    </>
  );
}

/** Cards side by side, as many as fit at `$min` pixels each; marked busy while a newer page loads. */
export const CardGrid = styled.div<{ $min: number }>`
  display: grid;
  gap: 16px;
  grid-template-columns: repeat(auto-fill, minmax(min(${({ $min }) => $min}px, 100%), 1fr));
  /* A card's long name or address wraps inside it rather than widening its column (and the page). */
  & > * {
    min-width: 0;
  }
  ${busyMark}
`;

/** A list's empty text, centred where the rows would be. */
export const EmptyNote = styled.p`
  padding: 48px 0;
  text-align: center;
  font-size: 16px;
  color: ${({ theme }) => theme.colors.muted};
`;
