import { useQuery } from '@tanstack/react-query';
import styled from 'styled-components';
import type { ReviewPage } from '@portal/contracts';
import { VisuallyHidden, withQueries } from '@portal/ui';
import { apiRequest } from '@portal/web-core';
import { ruCount } from '@portal/contracts';

/** Asked again this often while the page is open, and whenever the person comes back to the tab. */
const REFRESH_MS = 60_000;
// Under the player's ['reviews']: a grade there reads the count again.
const REVIEWS_WAITING_KEY = ['reviews', 'waiting'] as const;

const waitingText = (n: number) => `${ruCount(n, { one: 'ответ ждёт', few: 'ответа ждут', many: 'ответов ждут' })} проверки`;

/** The number of attempts «на проверке» beside «Проверка ответов»: nothing while none waits. */
function Waiting() {
  const waiting = useQuery({
    queryKey: REVIEWS_WAITING_KEY,
    queryFn: ({ signal }) => apiRequest<ReviewPage>('/reviews', { query: { page: 1, limit: 1 }, signal }),
    refetchInterval: REFRESH_MS,
  });
  const total = waiting.data?.total ?? 0;
  if (!total) return null;
  return (
    <Count data-testid="reviews-waiting">
      <span aria-hidden="true">{total}</span>
      <VisuallyHidden>{` — ${waitingText(total)}`}</VisuallyHidden>
    </Count>
  );
}

export const ReviewsWaiting = withQueries(Waiting);

const Count = styled.span`
  display: inline-block;
  margin-left: 6px;
  min-width: 20px;
  padding: 0 6px;
  border-radius: 10px;
  font-size: 12px;
  line-height: 20px;
  text-align: center;
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.primaryText};
`;
