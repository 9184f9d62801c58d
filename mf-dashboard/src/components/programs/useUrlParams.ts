import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearch } from '@portal/web-core';

export type UrlParams<K extends string> = Record<K, string> & { page: number };

function fromUrl<K extends string>(keys: readonly K[]): UrlParams<K> {
  const q = new URLSearchParams(window.location.search);
  const page = Number(q.get('page'));
  const values = Object.fromEntries(keys.map((k) => [k, q.get(k) ?? ''])) as Record<K, string>;
  return { ...values, page: Number.isInteger(page) && page > 1 ? page : 1 };
}

/**
 * A list's filters and its page in the address (?search=&status=&page=), as the course catalogue
 * keeps them (mf-courses' useListParams): a reload, a shared link or the back button shows the same
 * rows. A new filter value starts again from the first page. Values are strings: the screen checks them.
 */
export function useUrlParams<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useState<UrlParams<K>>(() => fromUrl(keys));
  const search = useSearch();

  // Another view of this page opened by a link changes only the address.
  useEffect(() => {
    setParams((current) => {
      const asked = fromUrl(keys);
      return JSON.stringify(asked) === JSON.stringify(current) ? current : asked;
    });
  }, [search]);

  // What the person changed here goes into the address. Params read from the address are written back
  // only while it still says the same (to tidy it): a header link followed between this screen's first
  // render and this effect (a fast click, a slow machine) moved it on, and writing the old params back
  // undid the click (the link to «Мои назначения» ended on /courses). The effect above takes the new ones.
  const changedHere = useRef(false);
  useEffect(() => {
    if (!changedHere.current && JSON.stringify(fromUrl(keys)) !== JSON.stringify(params)) return;
    changedHere.current = false;
    const q = new URLSearchParams();
    for (const key of keys) if (params[key]) q.set(key, params[key]);
    if (params.page > 1) q.set('page', String(params.page));
    const next = `${window.location.pathname}${q.size ? `?${q}` : ''}`;
    if (next !== `${window.location.pathname}${window.location.search}`)
      window.history.replaceState(window.history.state, '', next);
  }, [params]);

  const setFilter = useCallback((key: K, value: string) => {
    changedHere.current = true;
    setParams((p) => ({ ...p, [key]: value, page: 1 }));
  }, []);
  const setPage = useCallback((page: number) => {
    changedHere.current = true;
    setParams((p) => ({ ...p, page }));
  }, []);
  return { params, setFilter, setPage };
}
