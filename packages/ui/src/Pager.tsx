import styled from 'styled-components';
import { Button } from './components';

export interface PagerProps {
  page: number;
  total: number;
  limit: number;
  onPage: (page: number) => void;
  /**
   * False when the service stopped counting at LIST_TOTAL_CAP (`Page.totalExact`): the number of
   * pages is unknown, so the pager names only this page and goes on while pages come full.
   */
  totalExact?: boolean;
  /** Rows on this page (needed with `totalExact: false`: a page that is not full is the last). */
  shown?: number;
}

/** Previous / next over a list paged on the server; absent when everything fits on one page. */
export function Pager({ page, total, limit, onPage, totalExact, shown }: PagerProps) {
  const counted = totalExact !== false;
  const pages = Math.max(1, Math.ceil(total / limit));
  if (counted && pages <= 1) return null;
  const last = counted ? page >= pages : (shown ?? limit) < limit;
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
