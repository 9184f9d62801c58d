import { useCallback, useEffect, useRef, useState } from 'react';
import { COURSE_LIST_FILTERS, COURSE_STATUSES, type CourseStatus } from '@portal/contracts';
import { useSearch } from '@portal/web-core';
import type { CourseListParams, CourseListView } from '../api/courses';

const fromUrl = (): CourseListParams => {
  const q = new URLSearchParams(window.location.search);
  const status = q.get('status') ?? 'all';
  const filter = q.get('filter') ?? 'all';
  const page = Number(q.get('page'));
  return {
    page: Number.isInteger(page) && page > 1 ? page : 1,
    search: q.get('search') ?? '',
    status: (COURSE_STATUSES as readonly string[]).includes(status) ? (status as CourseStatus) : 'all',
    filter: [...COURSE_LIST_FILTERS, 'assigned'].includes(filter) ? (filter as CourseListView) : 'all',
  };
};

/**
 * Search, filters and the page live in the address (?search=&status=&filter=&page=), so a reload, a
 * shared link or the back button keeps what the person was looking at. A new search or filter starts
 * again from the first page; a link to another view of the page is followed.
 */
export function useListParams(): [CourseListParams, (patch: Partial<CourseListParams>) => void] {
  const [params, setParams] = useState<CourseListParams>(fromUrl);
  const search = useSearch();

  // A link to another view of this page (the header's «Мои назначения», «Курсы») changes the address only.
  useEffect(() => {
    setParams((current) => {
      const asked = fromUrl();
      return JSON.stringify(asked) === JSON.stringify(current) ? current : asked;
    });
  }, [search]);

  // What the person changed here goes into the address. Params read from the address are written back
  // only while it still says the same (to tidy it): a header link followed between this screen's first
  // render and this effect (a fast click, a slow machine) moved it on, and writing the old params back
  // undid the click (the link to «Мои назначения» ended on /courses). The effect above takes the new ones.
  const changedHere = useRef(false);
  useEffect(() => {
    if (!changedHere.current && JSON.stringify(fromUrl()) !== JSON.stringify(params)) return;
    changedHere.current = false;
    const q = new URLSearchParams();
    if (params.search) q.set('search', params.search);
    if (params.status !== 'all') q.set('status', params.status);
    if (params.filter !== 'all') q.set('filter', params.filter);
    if (params.page > 1) q.set('page', String(params.page));
    const next = `${window.location.pathname}${q.size ? `?${q}` : ''}`;
    if (next !== `${window.location.pathname}${window.location.search}`)
      window.history.replaceState(window.history.state, '', next);
  }, [params]);

  const update = useCallback((patch: Partial<CourseListParams>) => {
    changedHere.current = true;
    setParams((p) => ({ ...p, page: 1, ...patch }));
  }, []);
  return [params, update];
}
