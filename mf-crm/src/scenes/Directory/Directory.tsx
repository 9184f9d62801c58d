import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CRM_MSG,
  ROLES,
  ROLE_LABELS,
  isStaff,
  userEditRights,
  type Role,
  type User,
  type UserUpdateInput,
} from '@portal/contracts';
import {
  Badge,
  Button,
  Card,
  Dialog,
  ExportButtons,
  FilterInput,
  FilterSelect,
  Muted,
  Page,
  useDebounced,
  usePagedFilters,
  useToast,
} from '@portal/ui';
import { navigate, paths, useAuth } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { downloadDirectory, fetchDirectory, updateUser, userKeys } from '../../api/users';
import { Applications } from '../../components/Applications';
import { CardHead, CardPages, ListHeader } from '../../components/CardList';
import { ResetLink } from '../../components/ResetLink';
import { PersonalDataDialog } from '../../components/SubjectActions';
import { UserForm } from '../../components/UserForm';
import { directoryCount, formatDate, isStale } from '../../format';

/** /crm/contacts («Пользователи»; an organization's people are its «Контакты»): every registered user, searchable by name, email or role. */
export function Directory() {
  const { user: me } = useAuth();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { filters, filterProps, page, setPage } = usePagedFilters({
    search: '',
    role: '' as Role | '',
    department: '',
    position: '',
  });
  const search = useDebounced(filters.search.trim(), 300);
  const { role } = filters;
  const department = useDebounced(filters.department.trim(), 300);
  const position = useDebounced(filters.position.trim(), 300);
  const [editing, setEditing] = useState<User | null>(null);
  const [personal, setPersonal] = useState<User | null>(null);

  const params = { search, role, department, position, page };
  const list = useQuery({
    queryKey: userKeys.directory(params),
    queryFn: ({ signal }) => fetchDirectory(params, signal),
    placeholderData: keepPreviousData,
  });

  const update = useMutation({
    mutationFn: ({ id, values, version }: { id: string; values: UserUpdateInput; version: number }) =>
      updateUser(id, values, version),
    onSuccess: async () => {
      setEditing(null);
      await readAgain(queryClient, userKeys.all);
    },
    onError: async (err) => {
      toast.failed(err, CRM_MSG.updateUserFailed);
      // Changed by someone else meanwhile: the list shows their version before the next try.
      if (isStale(err)) await readAgain(queryClient, userKeys.all);
    },
  });

  const isAdmin = me?.role === 'ADMIN';
  // The auth service's rule, offered as is: a CURATOR or MANAGER renames learners and edits only their own email.
  const rightsOver = (target: User) =>
    me ? userEditRights(me, target) : { fullName: false, email: false, role: false, department: false };
  const canEdit = (target: User) => rightsOver(target).fullName;
  const data = list.data;

  return (
    <Page data-mf="mf_crm">
      <ListHeader
        title="Пользователи"
        count={
          // While another filter loads, the previous page stays on screen, but not its count.
          <Muted role="status" data-testid="directory-count">
            {data && !list.isPlaceholderData ? directoryCount(data, { search, role }) : '\u00a0'}
          </Muted>
        }
      >
        {me && isStaff(me.role) && (
          <Button $variant="outline" $size="sm" onClick={() => navigate(paths.staffImport())}>
            Импорт сотрудников
          </Button>
        )}
        {isAdmin && (
          <Button $variant="outline" $size="sm" onClick={() => navigate(paths.directorySync())}>
            Синхронизация с каталогом
          </Button>
        )}
        <ExportButtons onExport={(format) => downloadDirectory({ search, role, department, position }, format)} />
      </ListHeader>

      {isAdmin && <Applications />}

      <Filters>
        <FilterInput
          type="search"
          label="Поиск пользователей"
          placeholder="Поиск по имени, email или роли"
          {...filterProps('search')}
        />
        <FilterSelect label="Фильтр по роли" {...filterProps('role')} anyLabel="Все роли" options={ROLES} labels={ROLE_LABELS} />
        <FilterInput label="Фильтр по подразделению" placeholder="Подразделение" {...filterProps('department')} />
        <FilterInput label="Фильтр по должности" placeholder="Должность" {...filterProps('position')} />
      </Filters>

      <CardPages query={list} failed={CRM_MSG.usersLoadError} empty={CRM_MSG.usersEmpty} min={260} onPage={setPage}>
        {(user) => (
          <UserCard key={user.id} aria-label={user.fullName} data-testid="user-card">
            <CardHead>
              <h2>{user.fullName}</h2>
              <Badge data-testid="user-role">{ROLE_LABELS[user.role]}</Badge>
            </CardHead>
            <a href={`mailto:${user.email}`}>{user.email}</a>
            {(user.department || user.position) && (
              <Muted data-testid="user-place">{[user.position, user.department].filter(Boolean).join(', ')}</Muted>
            )}
            <Muted>Зарегистрирован {formatDate(user.createdAt)}</Muted>
            {canEdit(user) && (
              <Button
                $variant="outline"
                $size="sm"
                aria-label={`Редактировать пользователя ${user.fullName}`}
                onClick={() => setEditing(user)}
              >
                Редактировать
              </Button>
            )}
            {isAdmin && user.id !== me?.id && (
              <Button
                $variant="ghost"
                $size="sm"
                aria-label={`Персональные данные: ${user.fullName}`}
                onClick={() => setPersonal(user)}
              >
                Персональные данные
              </Button>
            )}
          </UserCard>
        )}
      </CardPages>

      <Dialog open={!!editing} title="Редактирование пользователя" onClose={() => setEditing(null)}>
        {editing && (
          <UserForm
            user={editing}
            rights={rightsOver(editing)}
            busy={update.isPending}
            onSubmit={(values) => update.mutate({ id: editing.id, values, version: editing.version })}
            onCancel={() => setEditing(null)}
          />
        )}
        {editing && isAdmin && <ResetLink user={editing} />}
      </Dialog>
      {personal && <PersonalDataDialog user={personal} onClose={() => setPersonal(null)} />}
    </Page>
  );
}

const Filters = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 360px) repeat(3, minmax(0, 180px));
  gap: 12px;
  margin: 24px 0;
  @media (max-width: 640px) {
    grid-template-columns: 1fr;
  }
`;
const UserCard = styled(Card).attrs({ as: 'article' })`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: 8px;
  padding: 20px;
  p {
    margin: 0;
    font-size: 13px;
  }
  a,
  p {
    max-width: 100%;
    overflow-wrap: anywhere;
    min-width: 0;
  }
  button {
    margin-top: auto;
  }
`;
