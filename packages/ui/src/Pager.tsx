import styled from 'styled-components';
import type { Page } from '@portal/contracts';
import { Button } from './components';

/** What the pager reads of a page the server sent (or of rows paged on the client). */
export type PagerPage = Pick<Page<unknown>, 'page' | 'total' | 'limit' | 'totalExact'> & { data: readonly unknown[] };

export interface PagerProps {
  /**
   * The page on screen. With `totalExact: false` the service stopped counting at LIST_TOTAL_CAP:
   * the number of pages is unknown, so the pager names only this page and goes on while pages come full.
   */
  of: PagerPage;
  onPage: (page: number) => void;
}

/** Previous / next over a list paged on the server; absent when everything fits on one page. */
export function Pager({ of: { page, total, limit, totalExact, data }, onPage }: PagerProps) {
  const counted = totalExact !== false;
  const pages = Math.max(1, Math.ceil(total / limit));
  if (counted && pages <= 1) return null;
  const last = counted ? page >= pages : data.length < limit;
  return (
    <Bar aria-label="Страницы">
      <Button type="button" $variant="outline" $size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Назад
      </Button>
      <span>{counted ? `Страница ${page} из ${pages}` : `Страница ${page}`}</span>
      <Button type="button" $variant="outline" $size="sm" disabled={last} onClick={() => onPage(page + 1)}>
        Вперёд
      </Button>
    </Bar>
  );
}

const Bar = styled.nav`
  display: flex;
  align-items: center;
  justify-content: center;
  gap: 12px;
  margin-top: 24px;
  color: ${({ theme }) => theme.colors.muted};
  font-size: 14px;
`;
