import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CRM_MSG, type OrganizationListItem } from '@portal/contracts';
import {
  Button,
  Card,
  Dialog,
  ExportButtons,
  Facts,
  FilterInput,
  Muted,
  Page,
  Spread,
  useDebounced,
  usePagedFilters,
  useToast,
} from '@portal/ui';
import { paths } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { createOrganization, crmKeys, downloadOrganizations, listOrganizations } from '../../api/crm';
import { Link } from '../../components/Link';
import { CardHead, CardPages, ListHeader } from '../../components/CardList';
import { OrganizationForm, type OrganizationValues } from '../../components/OrganizationForm';
import { DeleteOrganizationDialog, SiteLink } from '../../components/OrganizationParts';
import { StatusBadge } from '../../components/StatusBadge';
import { contactCount, formatDate, totalText } from '../../format';

/** /crm/orgs: search by name or tax number, a card grid, the add dialog. */
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

  const create = useMutation({
    mutationFn: (values: OrganizationValues) => createOrganization(values),
    onSuccess: async () => {
      setAdding(false);
      setPage(1);
      await readAgain(queryClient, crmKeys.all);
    },
    onError: (err) => toast.failed(err, CRM_MSG.createOrgFailed),
  });

  const data = list.data;
  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  // A delete emptied the last page: step back to the page that still has rows.
  useEffect(() => {
    if (data && !data.data.length && page > lastPage) setPage(lastPage);
  }, [data, page, lastPage, setPage]);

  return (
    <Page data-mf="mf_crm">
      <ListHeader title="Организации" count={data && <Muted>Всего: {totalText(data)}</Muted>}>
        <ExportButtons onExport={(format) => downloadOrganizations(search, format)} />
        <Button onClick={() => setAdding(true)}>Добавить организацию</Button>
      </ListHeader>

      <Search type="search" label="Поиск организаций" placeholder="Поиск по названию или ИНН" {...filterProps('search')} />

      <CardPages query={list} failed={CRM_MSG.orgsLoadError} empty={CRM_MSG.orgsEmpty} min={280} onPage={setPage}>
        {(org) => (
          <OrgCard key={org.id} aria-label={org.name} data-testid="org-card">
            <CardHead>
              <h2>{org.name}</h2>
              <StatusBadge status={org.status} />
            </CardHead>
            <CardFacts
              facts={[
                ['ИНН', org.inn],
                org.site && ['Сайт', <SiteLink site={org.site} />],
                ['Контакты', contactCount(org._count.contacts)],
                ['Создана', formatDate(org.createdAt)],
              ]}
            />
            <CardActions>
              <Link href={paths.organization(org.id)}>Подробнее</Link>
              <Button
                $variant="destructive"
                $size="sm"
                aria-label={`Удалить организацию ${org.name}`}
                onClick={() => setToDelete(org)}
              >
                Удалить
              </Button>
            </CardActions>
          </OrgCard>
        )}
      </CardPages>

      <Dialog open={adding} title="Новая организация" onClose={() => setAdding(false)}>
        <OrganizationForm
          submitLabel="Создать"
          busy={create.isPending}
          onSubmit={(v) => create.mutate(v)}
          onCancel={() => setAdding(false)}
        />
      </Dialog>
      {toDelete && <DeleteOrganizationDialog org={toDelete} onClose={() => setToDelete(null)} />}
    </Page>
  );
}

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
const CardFacts = styled(Facts)`
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
  dd {
    min-width: 0;
    overflow-wrap: anywhere;
  }
`;
const CardActions = styled(Spread).attrs({ $gap: 8 })`
  a {
    font-weight: 600;
  }
`;
