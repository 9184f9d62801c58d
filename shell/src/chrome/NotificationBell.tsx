import { useState } from 'react';
import styled from 'styled-components';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NOTIFICATION_UNREAD_CAP, ruCount, type Notification, type NotificationPage } from '@portal/contracts';
import { Button, Dialog, EmptyState, LoadError, Loading, Pager, PlainList, Spread, withQueries } from '@portal/ui';
import { apiRequest, navigate } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { BellIcon } from './BellIcon';

const PAGE_SIZE = 10;
/** The count is asked again this often while the page is open (a reminder arrives without a reload). */
const REFRESH_MS = 60_000;
const keys = { page: (page: number) => ['notifications', page] as const, all: ['notifications'] as const };

const timeText = (iso: string) =>
  new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

const unreadText = (n: number) => {
  if (n >= NOTIFICATION_UNREAD_CAP) return `больше ${NOTIFICATION_UNREAD_CAP - 1} непрочитанных`;
  return ruCount(n, { one: 'непрочитанное', few: 'непрочитанных', many: 'непрочитанных' });
};

/** The bell of the chrome: the unread count on the button, the person's notifications in a dialog, newest first. */
function Bell() {
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(1);
  const client = useQueryClient();
  const list = useQuery({
    queryKey: keys.page(page),
    queryFn: ({ signal }) => apiRequest<NotificationPage>('/notifications', { query: { page, limit: PAGE_SIZE }, signal }),
    refetchInterval: REFRESH_MS,
  });
  const refresh = () => readAgain(client, keys.all);
  const readOne = useMutation({
    mutationFn: (id: string) => apiRequest<Notification>(`/notifications/${id}/read`, { method: 'POST' }),
    onSettled: refresh,
  });
  const readAll = useMutation({
    mutationFn: () => apiRequest<{ updated: number }>('/notifications/read-all', { method: 'POST' }),
    onSettled: refresh,
  });
  const unread = list.data?.unread ?? 0;
  const follow = (n: Notification) => {
    if (!n.read) readOne.mutate(n.id);
    setOpen(false);
    navigate(n.link);
  };

  return (
    <>
      <Button
        $variant="ghost"
        $size="sm"
        aria-label={unread ? `Уведомления: ${unreadText(unread)}` : 'Уведомления'}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <BellIcon />
        {unread > 0 && (
          <Count aria-hidden="true">{unread >= NOTIFICATION_UNREAD_CAP ? `${NOTIFICATION_UNREAD_CAP - 1}+` : unread}</Count>
        )}
      </Button>
      <Dialog open={open} title="Уведомления" onClose={() => setOpen(false)} wide>
        {list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.data.length === 0 ? (
          <EmptyState
            title="Уведомлений нет"
            hint="Здесь появятся назначения курсов, напоминания о сроках и итоги проверки тестов."
          />
        ) : (
          <>
            <Toolbar>
              <span>{unread ? unreadText(unread) : 'Все прочитаны'}</span>
              <Button
                type="button"
                $variant="outline"
                $size="sm"
                disabled={!unread || readAll.isPending}
                onClick={() => readAll.mutate()}
              >
                Отметить все прочитанными
              </Button>
            </Toolbar>
            <PlainList aria-label="Список уведомлений">
              {list.data.data.map((n) => (
                <Item key={n.id} $unread={!n.read} data-testid="notification" data-kind={n.kind}>
                  <ItemLink
                    href={n.link}
                    onClick={(e) => {
                      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                      e.preventDefault();
                      follow(n);
                    }}
                  >
                    {!n.read && <Hidden>Новое: </Hidden>}
                    {n.title}
                  </ItemLink>
                  <Text>{n.text}</Text>
                  <Meta>
                    <time dateTime={n.createdAt}>{timeText(n.createdAt)}</time>
                    {!n.read && (
                      <Button type="button" $variant="ghost" $size="sm" onClick={() => readOne.mutate(n.id)}>
                        Прочитано
                      </Button>
                    )}
                  </Meta>
                </Item>
              ))}
            </PlainList>
            <Pager of={list.data} onPage={setPage} />
          </>
        )}
      </Dialog>
    </>
  );
}

const Count = styled.span`
  margin-left: 4px;
  min-width: 18px;
  padding: 0 5px;
  border-radius: 9px;
  font-size: 12px;
  font-weight: 700;
  line-height: 18px;
  background: ${({ theme }) => theme.colors.danger};
  color: #fff;
`;
const Toolbar = styled(Spread)`
  margin-bottom: 12px;
  color: ${({ theme }) => theme.colors.muted};
`;
const Item = styled.li<{ $unread: boolean }>`
  padding: 10px 12px;
  border-radius: 8px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme, $unread }) => ($unread ? theme.colors.surfaceAlt : theme.colors.surface)};
  font-weight: ${({ $unread }) => ($unread ? 600 : 400)};
`;
const ItemLink = styled.a`
  color: ${({ theme }) => theme.colors.text};
`;
const Text = styled.p`
  margin: 4px 0;
  font-weight: 400;
`;
const Meta = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  font-size: 13px;
  font-weight: 400;
  color: ${({ theme }) => theme.colors.muted};
`;
const Hidden = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
`;

export const NotificationBell = withQueries(Bell);
