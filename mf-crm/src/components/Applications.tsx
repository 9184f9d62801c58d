import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { ROLE_LABELS, type RoleApplication } from '@portal/contracts';
import { Button, Card, Muted, PagedList, PlainList, Row, Spread, useToast } from '@portal/ui';
import { useReadAgain } from '@portal/web-core/query';
import { applicationKeys, decideApplication, fetchPendingApplications, userKeys } from '../api/users';
import { formatDate } from '../format';

/**
 * The administrator's «Заявки»: people who registered as CURATOR and study as candidates until
 * approved. Approval gives the role at once; both decisions are audited by the auth service.
 */
export function Applications() {
  const refresh = useReadAgain();
  const toast = useToast();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const list = useQuery({
    queryKey: applicationKeys.page(page),
    queryFn: ({ signal }) => fetchPendingApplications(page, signal),
    placeholderData: keepPreviousData,
  });
  const decide = useMutation({
    mutationFn: ({ application, decision }: { application: RoleApplication; decision: 'approve' | 'decline' }) =>
      decideApplication(application.id, decision),
    onSuccess: async (answer) => {
      setStatus(`${answer.user.fullName}: ${answer.message}`);
      await refresh(applicationKeys.all, userKeys.all);
    },
    // A decision another administrator made first is refused with its reason; the list is re-read.
    onError: async (err) => {
      toast.failed(err, 'Не удалось обработать заявку');
      await refresh(applicationKeys.all);
    },
  });

  const data = list.data;
  return (
    <Section aria-labelledby="applications-title" data-testid="applications">
      <h2 id="applications-title">Заявки{data ? ` (${data.total})` : ''}</h2>
      <Muted role="status">{status}</Muted>
      <PagedList query={list} failed="Не удалось загрузить заявки" empty={<Muted>Новых заявок нет</Muted>} onPage={setPage}>
        {(rows) => (
          <List>
            {rows.map((application) => (
              <Item key={application.id} aria-label={`Заявка: ${application.user.fullName}`} data-testid="application">
                <div>
                  <strong>{application.user.fullName}</strong> · {application.user.email}
                  <Muted>
                    Роль «{ROLE_LABELS[application.role]}», подана {formatDate(application.createdAt)}
                  </Muted>
                </div>
                <Row>
                  <Button
                    $size="sm"
                    disabled={decide.isPending}
                    aria-label={`Одобрить заявку ${application.user.fullName}`}
                    onClick={() => decide.mutate({ application, decision: 'approve' })}
                  >
                    Одобрить
                  </Button>
                  <Button
                    $size="sm"
                    $variant="outline"
                    disabled={decide.isPending}
                    aria-label={`Отклонить заявку ${application.user.fullName}`}
                    onClick={() => decide.mutate({ application, decision: 'decline' })}
                  >
                    Отклонить
                  </Button>
                </Row>
              </Item>
            ))}
          </List>
        )}
      </PagedList>
    </Section>
  );
}

const Section = styled(Card).attrs({ as: 'section' })`
  margin: 24px 0 0;
  padding: 20px;
  h2 {
    margin: 0 0 8px;
    font-size: 18px;
  }
  p {
    margin: 0;
    font-size: 13px;
  }
`;
const List = styled(PlainList)`
  margin-top: 8px;
`;
const Item = styled(Spread).attrs({ as: 'li' })`
  padding: 12px 0;
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  overflow-wrap: anywhere;
`;
