import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CRM_MSG, formatMessage, type OrganizationListItem } from '@portal/contracts';
import {
  Button,
  Card,
  CardGrid,
  ConfirmDialog,
  Dialog,
  EmptyNote,
  ExportButtons,
  FactList,
  FilterInput,
  Muted,
  Page,
  PagedList,
  useDebounced,
  usePagedFilters,
  useToast,
} from '@portal/ui';
import { paths } from '@portal/web-core';
import { createOrganization, crmKeys, deleteOrganization, downloadOrganizations, listOrganizations } from '../../api/crm';
import { Link } from '../../components/Link';
import { OrganizationForm, type OrganizationValues } from '../../components/OrganizationForm';
import { StatusBadge } from '../../components/StatusBadge';
import { contactCount, formatDate, siteHref, totalText } from '../../format';

/** /crm/orgs: search by name or tax number, a card grid, the add dialog (spec section 2). */
export function Organizations() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { filters, filterProps, page, setPage } = usePagedFilters({ search: '' });
  const search = useDebounced(filters.search.trim(), 300);
  const [adding, setAdding] = useState(false);
  const [toDelete, setToDelete] = useState<OrganizationListItem | null>(null);

  const list = useQuery({
    queryKey: crmKeys.organizations({ search, page }),
    queryFn: ({ signal }) => listOrganizations({ search, page }, signal),
    placeholderData: keepPreviousData,
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: crmKeys.all });

  const create = useMutation({
    mutationFn: (values: OrganizationValues) => createOrganization(values),
    onSuccess: async () => {
      setAdding(false);
      setPage(1);
      await refresh();
    },
    onError: (err) => toast.failed(err, CRM_MSG.createOrgFailed),
  });

  const remove = useMutation({
    mutationFn: (org: OrganizationListItem) => deleteOrganization(org.id),
    onSuccess: async (_, org) => {
      queryClient.removeQueries({ queryKey: crmKeys.organization(org.id) });
      await refresh();
    },
    onError: (err) => toast.failed(err, CRM_MSG.deleteOrgFailed),
    onSettled: () => setToDelete(null),
  });

  const data = list.data;
  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  // A delete emptied the last page: step back to the page that still has rows.
  useEffect(() => {
    if (data && !data.data.length && page > lastPage) setPage(lastPage);
  }, [data, page, lastPage, setPage]);

  return (
    <Page data-mf="mf_crm">
      <Header>
        <div>
          <h1>Организации</h1>
          {data && <Muted>Всего: {totalText(data)}</Muted>}
        </div>
        <Actions>
          <ExportButtons onExport={(format) => downloadOrganizations(search, format)} />
          <Button onClick={() => setAdding(true)}>Добавить организацию</Button>
        </Actions>
      </Header>

      <Search type="search" label="Поиск организаций" placeholder="Поиск по названию или ИНН" {...filterProps('search')} />

      <PagedList query={list} failed={CRM_MSG.orgsLoadError} empty={<EmptyNote>{CRM_MSG.orgsEmpty}</EmptyNote>} onPage={setPage}>
        {(rows, busy) => (
          <CardGrid $min={280} aria-busy={busy}>
            {rows.map((org) => (
              <OrgCard key={org.id} aria-label={org.name} data-testid="org-card">
                <CardHead>
                  <h2>{org.name}</h2>
                  <StatusBadge status={org.status} />
                </CardHead>
                <Facts>
                  <div>
                    <dt>ИНН</dt>
                    <dd>{org.inn}</dd>
                  </div>
                  {org.site && (
                    <div>
                      <dt>Сайт</dt>
                      <dd>
                        <a href={siteHref(org.site)} target="_blank" rel="noopener noreferrer">
                          {org.site}
                        </a>
                      </dd>
                    </div>
                  )}
                  <div>
                    <dt>Контакты</dt>
                    <dd>{contactCount(org._count.contacts)}</dd>
                  </div>
                  <div>
                    <dt>Создана</dt>
                    <dd>{formatDate(org.createdAt)}</dd>
                  </div>
                </Facts>
                <CardActions>
                  <Link href={paths.organization(org.id)}>Подробнее</Link>
                  <Button
                    $variant="destructive"
                    $size="sm"
                    aria-label={`Удалить организацию ${org.name}`}
                    disabled={remove.isPending && remove.variables?.id === org.id}
                    onClick={() => setToDelete(org)}
                  >
                    Удалить
                  </Button>
                </CardActions>
              </OrgCard>
            ))}
          </CardGrid>
        )}
      </PagedList>

      <Dialog open={adding} title="Новая организация" onClose={() => setAdding(false)}>
        <OrganizationForm
          submitLabel="Создать"
          busy={create.isPending}
          onSubmit={(v) => create.mutate(v)}
          onCancel={() => setAdding(false)}
        />
      </Dialog>
      {toDelete && (
        <ConfirmDialog
          title="Удаление организации"
          message={formatMessage(CRM_MSG.confirmDeleteOrg, { name: toDelete.name })}
          confirmLabel="Удалить"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(toDelete)}
          onCancel={() => setToDelete(null)}
        />
      )}
    </Page>
  );
}

const Header = styled.header`
  display: flex;
  align-items: flex-start;
  justify-content: space-between;
  gap: 16px;
  flex-wrap: wrap;
  h1 {
    margin: 0;
  }
  p {
    margin: 4px 0 0;
  }
`;
const Search = styled(FilterInput)`
  margin: 24px 0;
  max-width: 420px;
`;
const OrgCard = styled(Card).attrs({ as: 'article' })`
  display: flex;
  flex-direction: column;
  gap: 12px;
  padding: 20px;
`;
const CardHead = styled.div`
  display: flex;
  align-items: flex-start;
  justify-content: space-between;
  gap: 8px;
  h2 {
    margin: 0;
    font-size: 18px;
    overflow-wrap: break-word;
  }
`;
const Facts = styled(FactList)`
  gap: 6px;
  font-size: 14px;
  flex: 1;
  align-content: start;
  div {
    display: flex;
    gap: 8px;
  }
  dt {
    min-width: 80px;
  }
`;
const CardActions = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 8px;
  a {
    font-weight: 600;
  }
`;
const Actions = styled.div`
  display: flex;
  align-items: flex-start;
  flex-wrap: wrap;
  gap: 8px;
`;
