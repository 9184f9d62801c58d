import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  SUBJECT_REQUEST_LABELS,
  SUBJECT_REQUEST_STATUSES,
  type SubjectRequest,
  type SubjectRequestStatus,
} from '@portal/contracts';
import { Badge, Button, FilterSelect, Muted, Page, PagedList, usePagedFilters } from '@portal/ui';
import { RecordCard, RecordList } from '../../components/RecordCards';
import { fetchSubjectRequests, subjectKeys } from '../../api/privacy';
import { ActDownload, Actions, ConfirmAnonymise, ExportDownloads, useAnonymise } from '../../components/SubjectActions';
import { formatDate } from '../../format';

const STATUS_LABELS: Record<SubjectRequestStatus, string> = { open: 'Открыт', done: 'Выполнен' };
const STATUS_FILTER_LABELS: Record<SubjectRequestStatus, string> = { open: 'Открытые', done: 'Выполненные' };
const REASON_LABELS: Record<SubjectRequest['reason'], string> = {
  withdrawal: 'отзыв согласия',
  admin: 'решение администратора',
};

/** /crm/subject-requests (ADMIN): «Запросы субъектов ПДн», exports and anonymisations with their status and acts. */
export function SubjectRequests() {
  const { filters, filterProps, page, setPage } = usePagedFilters({ status: '' as SubjectRequestStatus | '' });
  const { status } = filters;
  const [asking, setAsking] = useState<SubjectRequest | null>(null);
  const list = useQuery({
    queryKey: subjectKeys.page(page, status),
    queryFn: ({ signal }) => fetchSubjectRequests(page, status, signal),
    placeholderData: keepPreviousData,
  });
  const anonymise = useAnonymise();

  return (
    <Page data-mf="mf_crm">
      <h1>Запросы субъектов ПДн</h1>
      <Muted>
        Выгрузка и обезличивание персональных данных (152-ФЗ). Новый запрос — кнопка «Персональные данные» на карточке
        пользователя в разделе «Контакты»; отзыв согласия создаёт запрос на обезличивание сам.
      </Muted>
      <Filters>
        <FilterSelect
          label="Фильтр по статусу"
          {...filterProps('status')}
          anyLabel="Все запросы"
          options={SUBJECT_REQUEST_STATUSES}
          labels={STATUS_FILTER_LABELS}
        />
      </Filters>
      <PagedList query={list} failed="Не удалось загрузить запросы" empty={<Muted>Запросов нет</Muted>} onPage={setPage}>
        {(rows, busy) => (
          <RecordList aria-busy={busy}>
            {rows.map((request) => (
              <Row
                key={request.id}
                aria-label={`${SUBJECT_REQUEST_LABELS[request.kind]}: ${request.user.fullName}`}
                data-testid="subject-request"
              >
                <div>
                  <strong>{SUBJECT_REQUEST_LABELS[request.kind]}</strong> · {request.user.fullName}
                  {request.user.email && ` · ${request.user.email}`}
                  <Muted>
                    От {formatDate(request.createdAt)}, основание: {REASON_LABELS[request.reason]}
                    {request.completedAt && `; выполнен ${formatDate(request.completedAt)}`}
                  </Muted>
                </div>
                <Badge $tone={request.status === 'done' ? 'success' : 'warning'} data-testid="subject-status">
                  {STATUS_LABELS[request.status]}
                </Badge>
                <Actions>
                  {request.kind === 'export' && <ExportDownloads request={request} />}
                  {request.kind === 'anonymise' && request.status === 'open' && (
                    <Button
                      type="button"
                      $variant="destructive"
                      $size="sm"
                      disabled={anonymise.isPending}
                      onClick={() => setAsking(request)}
                    >
                      Обезличить…
                    </Button>
                  )}
                  {request.hasAct && <ActDownload request={request} />}
                </Actions>
              </Row>
            ))}
          </RecordList>
        )}
      </PagedList>
      {asking && (
        <ConfirmAnonymise
          user={asking.user}
          onConfirm={() => {
            anonymise.mutate(asking);
            setAsking(null);
          }}
          onCancel={() => setAsking(null)}
        />
      )}
    </Page>
  );
}

const Filters = styled.div`
  margin: 16px 0;
  max-width: 240px;
`;
const Row = styled(RecordCard)`
  & > div:last-child {
    grid-column: 1 / -1;
  }
`;
