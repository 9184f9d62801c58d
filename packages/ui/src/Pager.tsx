import styled from 'styled-components';
import { Button } from './components';

export interface PagerProps {
  page: number;
  total: number;
  limit: number;
  onPage: (page: number) => void;
}

/** Previous / next over a list paged on the server; absent when everything fits on one page. */
export function Pager({ page, total, limit, onPage }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / limit));
  if (pages <= 1) return null;
  return (
    <Bar aria-label="Страницы">
      <Button type="button" $variant="outline" $size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Назад
      </Button>
      <span>
        Страница {page} из {pages}
      </span>
      <Button type="button" $variant="outline" $size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
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
