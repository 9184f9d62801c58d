import { useState } from 'react';
import styled from 'styled-components';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CRM_MSG, formatMessage, type Contact } from '@portal/contracts';
import { BoxList, Button, Card, ConfirmDialog, Dialog, Facts, LoadError, Muted, Page, Row, useToast } from '@portal/ui';
import { navigate, paths } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { createContact, crmKeys, deleteContact, getOrganization, updateContact, updateOrganization } from '../../api/crm';
import { ContactForm, type ContactValues } from '../../components/ContactForm';
import { Link } from '../../components/Link';
import { OrganizationForm, type OrganizationValues } from '../../components/OrganizationForm';
import { DeleteOrganizationDialog, SiteLink } from '../../components/OrganizationParts';
import { StatusBadge } from '../../components/StatusBadge';
import { contactCount, formatDate, isStale } from '../../format';

type ContactDialog = { kind: 'create' } | { kind: 'edit'; contact: Contact } | null;
/** What a confirmation is asking to delete: this organization, or one of its contacts. */
type Deleting = { kind: 'org' } | { kind: 'contact'; contact: Contact } | null;

/** /crm/orgs/{id}: the info card, its edit dialog and the organization's contacts. */
export function Organization({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [contactDialog, setContactDialog] = useState<ContactDialog>(null);
  const [deleting, setDeleting] = useState<Deleting>(null);

  const detail = useQuery({ queryKey: crmKeys.organization(id), queryFn: ({ signal }) => getOrganization(id, signal) });
  const refresh = () => readAgain(queryClient, crmKeys.all);

  const update = useMutation({
    mutationFn: (values: OrganizationValues) => updateOrganization(id, values, detail.data?.version ?? 0),
    onSuccess: async () => {
      setEditing(false);
      await refresh();
    },
    onError: async (err) => {
      toast.failed(err, CRM_MSG.updateOrgFailed);
      // Changed by someone else meanwhile: their version is shown before the next try.
      if (isStale(err)) await refresh();
    },
  });

  const saveContact = useMutation({
    mutationFn: (values: ContactValues) =>
      contactDialog?.kind === 'edit'
        ? updateContact(contactDialog.contact.id, values, contactDialog.contact.version)
        : createContact({ ...values, orgId: id }),
    onSuccess: async () => {
      setContactDialog(null);
      await refresh();
    },
    onError: async (err) => {
      toast.failed(err, contactDialog?.kind === 'edit' ? CRM_MSG.updateContactFailed : CRM_MSG.createContactFailed);
      if (isStale(err)) await refresh();
    },
  });

  const removeContact = useMutation({
    mutationFn: (contact: Contact) => deleteContact(contact.id),
    onSuccess: () => refresh(),
    onError: (err) => toast.failed(err, CRM_MSG.deleteContactFailed),
    onSettled: () => setDeleting(null),
  });

  const back = (
    <Back>
      <Link href={paths.organizations()}>← Все организации</Link>
    </Back>
  );

  if (detail.isPending) {
    return (
      <Page data-mf="mf_crm">
        {back}
        <Muted aria-busy="true">Загрузка...</Muted>
      </Page>
    );
  }
  if (detail.isError) {
    return (
      <Page data-mf="mf_crm">
        {back}
        <LoadError title={CRM_MSG.orgLoadError} error={detail.error} onRetry={() => void detail.refetch()} />
      </Page>
    );
  }

  const org = detail.data;

  return (
    <Page data-mf="mf_crm">
      {back}
      <Info aria-labelledby="org-title">
        <InfoHead>
          <div>
            <h1 id="org-title">{org.name}</h1>
            <StatusBadge status={org.status} />
          </div>
          <Row>
            <Button $variant="outline" onClick={() => setEditing(true)}>
              Редактировать
            </Button>
            <Button $variant="destructive" onClick={() => setDeleting({ kind: 'org' })}>
              Удалить
            </Button>
          </Row>
        </InfoHead>
        <InfoFacts
          facts={[
            ['ИНН', org.inn],
            ['Сайт', org.site ? <SiteLink site={org.site} /> : 'не указан'],
            ['Создана', formatDate(org.createdAt)],
            ['Обновлена', formatDate(org.updatedAt)],
          ]}
        />
      </Info>

      <Contacts aria-labelledby="contacts-title">
        <InfoHead>
          <div>
            <h2 id="contacts-title">Контакты</h2>
            <Muted>{contactCount(org.contacts.length)}</Muted>
          </div>
          <Button onClick={() => setContactDialog({ kind: 'create' })}>Добавить контакт</Button>
        </InfoHead>
        {org.contacts.length === 0 ? (
          <Muted>Контактов пока нет</Muted>
        ) : (
          <ContactList>
            {org.contacts.map((contact) => (
              <li key={contact.id} aria-label={contact.fullName} data-testid="contact">
                <div>
                  <strong>{contact.fullName}</strong>
                  {contact.role && <Muted as="span">{contact.role}</Muted>}
                </div>
                <Links>
                  <a href={`mailto:${contact.email}`}>{contact.email}</a>
                  {contact.phone && <a href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`}>{contact.phone}</a>}
                </Links>
                <Muted as="span">Добавлен {formatDate(contact.createdAt)}</Muted>
                <Row>
                  <Button
                    $variant="ghost"
                    $size="sm"
                    aria-label={`Изменить контакт ${contact.fullName}`}
                    onClick={() => setContactDialog({ kind: 'edit', contact })}
                  >
                    Изменить
                  </Button>
                  <Button
                    $variant="destructive"
                    $size="sm"
                    aria-label={`Удалить контакт ${contact.fullName}`}
                    disabled={removeContact.isPending && removeContact.variables?.id === contact.id}
                    onClick={() => setDeleting({ kind: 'contact', contact })}
                  >
                    Удалить
                  </Button>
                </Row>
              </li>
            ))}
          </ContactList>
        )}
      </Contacts>

      <Dialog open={editing} title="Редактирование организации" onClose={() => setEditing(false)}>
        <OrganizationForm
          initial={org}
          submitLabel="Сохранить"
          busy={update.isPending}
          onSubmit={(v) => update.mutate(v)}
          onCancel={() => setEditing(false)}
        />
      </Dialog>
      <Dialog
        open={!!contactDialog}
        title={contactDialog?.kind === 'edit' ? 'Редактирование контакта' : 'Новый контакт'}
        onClose={() => setContactDialog(null)}
      >
        <ContactForm
          orgId={id}
          initial={contactDialog?.kind === 'edit' ? contactDialog.contact : undefined}
          submitLabel={contactDialog?.kind === 'edit' ? 'Сохранить' : 'Добавить'}
          busy={saveContact.isPending}
          onSubmit={(v) => saveContact.mutate(v)}
          onCancel={() => setContactDialog(null)}
        />
      </Dialog>
      {deleting?.kind === 'org' && (
        <DeleteOrganizationDialog org={org} onDeleted={() => navigate(paths.organizations())} onClose={() => setDeleting(null)} />
      )}
      {deleting?.kind === 'contact' && (
        <ConfirmDialog
          title="Удаление контакта"
          message={formatMessage(CRM_MSG.confirmDeleteContact, { name: deleting.contact.fullName })}
          confirmLabel="Удалить"
          busy={removeContact.isPending}
          onConfirm={() => removeContact.mutate(deleting.contact)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </Page>
  );
}

const Back = styled.p`
  margin: 0 0 16px;
  a {
    text-decoration: none;
    font-weight: 600;
  }
`;
const Info = styled(Card).attrs({ as: 'section' })`
  display: grid;
  gap: 16px;
`;
const Contacts = styled(Info)`
  margin-top: 24px;
`;
const InfoHead = styled.div`
  display: flex;
  align-items: flex-start;
  justify-content: space-between;
  gap: 16px;
  flex-wrap: wrap;
  > div:first-child {
    display: flex;
    align-items: center;
    gap: 12px;
    flex-wrap: wrap;
  }
  h1,
  h2 {
    margin: 0;
    overflow-wrap: break-word;
  }
  p {
    margin: 0;
  }
`;
const InfoFacts = styled(Facts)`
  gap: 8px 24px;
  grid-template-columns: repeat(auto-fill, minmax(200px, 1fr));
  dt {
    font-size: 13px;
  }
`;
const ContactList = styled(BoxList).attrs({ $gap: 12 })`
  > li {
    display: grid;
    gap: 4px 16px;
    align-items: center;
    padding: 12px 16px;
    grid-template-columns: minmax(180px, 1.2fr) minmax(180px, 1.5fr) auto auto;
    background: ${({ theme }) => theme.colors.surfaceAlt};
    @media (max-width: 760px) {
      grid-template-columns: 1fr;
    }
  }
  li > div:first-child {
    display: grid;
  }
  span {
    margin: 0;
    font-size: 13px;
  }
`;
const Links = styled.div`
  display: grid;
  font-size: 14px;
  a {
    overflow-wrap: break-word;
    min-width: 0;
  }
`;
