import { lazy, type MouseEvent } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AUDIENCE_LABELS, ROLE_LABELS, STAFF_ROLES, type Assignment } from '@portal/contracts';
import {
  Card,
  Field,
  Input,
  LazyPart,
  Loading,
  Muted,
  Page,
  PagedList,
  PartFailed,
  Select,
  TableScroll,
  refusalOf,
  usePagedFilters,
} from '@portal/ui';
import { navigate, paths, useAuth } from '@portal/web-core';
import { formatDay } from '@portal/web-core/assignments';
import { readAgain } from '@portal/web-core/query';
import { assignmentKeys, createAssignment, fetchAssignments, fetchPublishedCourses } from '../../api/assignments';

/** The form and its form library come only to those who may assign: a learner's dashboard does without them. */
const AssignForm = lazy(() => import('../../components/AssignForm').then((m) => ({ default: m.AssignForm })));

export const audienceText = (a: Assignment): string =>
  a.audience.kind === 'department'
    ? `${AUDIENCE_LABELS.department} «${a.audience.department}»`
    : a.audience.kind === 'role'
      ? `${AUDIENCE_LABELS.role} «${ROLE_LABELS[a.audience.role]}»`
      : a.audience.kind === 'users'
        ? `${AUDIENCE_LABELS.users}: ${a.audience.userIds.length}`
        : AUDIENCE_LABELS.all;

/** /assignments: who must learn what by when; ADMIN and CURATOR assign, the MANAGER reads. */
export function Assignments() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const { filters, setFilter, page, setPage } = usePagedFilters({ courseId: '', dueFrom: '', dueTo: '' });
  const list = useQuery({
    queryKey: assignmentKeys.list(page, filters),
    queryFn: ({ signal }) => fetchAssignments(page, filters, signal),
    placeholderData: keepPreviousData,
  });
  const courses = useQuery({ queryKey: assignmentKeys.courses, queryFn: ({ signal }) => fetchPublishedCourses(signal) });
  const filtered = !!(filters.courseId || filters.dueFrom || filters.dueTo);
  const create = useMutation({
    mutationFn: createAssignment,
    onSuccess: async () => {
      setPage(1);
      await readAgain(queryClient, assignmentKeys.all);
    },
  });
  const canAssign = !!user && STAFF_ROLES.includes(user.role);
  const open = (id: string) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(paths.assignment(id));
  };

  return (
    <Page data-mf="mf_dashboard">
      <h1>Назначения</h1>
      {canAssign && (
        <Section>
          <h2>Назначить курс</h2>
          <LazyPart fallback={<Loading label="Загрузка формы..." />} failed={<PartFailed what="форму назначения" />}>
            <AssignForm
              busy={create.isPending}
              error={create.isError ? refusalOf(create.error, 'Не удалось назначить курс') : null}
              onSubmit={(input) => create.mutate(input)}
            />
          </LazyPart>
          {create.isSuccess && <Muted role="status">Курс «{create.data.courseTitle}» назначен</Muted>}
        </Section>
      )}
      <Filters role="search" aria-label="Фильтры назначений">
        <Field label="Курс">
          <Select value={filters.courseId} onChange={(e) => setFilter('courseId', e.target.value)}>
            <option value="">Все курсы</option>
            {(courses.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Срок с">
          <Input type="date" value={filters.dueFrom} onChange={(e) => setFilter('dueFrom', e.target.value)} />
        </Field>
        <Field label="Срок по">
          <Input type="date" value={filters.dueTo} onChange={(e) => setFilter('dueTo', e.target.value)} />
        </Field>
      </Filters>
      <PagedList
        query={list}
        failed="Не удалось загрузить назначения"
        empty={<Muted>{filtered ? 'Под эти фильтры назначений нет' : 'Назначений пока нет'}</Muted>}
        onPage={setPage}
      >
        {(rows) => (
          <TableScroll aria-label="Назначения, таблица">
            <Table aria-label="Назначения">
              <thead>
                <tr>
                  <th>Курс</th>
                  <th>Кому</th>
                  <th>Срок</th>
                  <th>Повтор</th>
                  <th>Назначил</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <a href={paths.assignment(a.id)} onClick={open(a.id)}>
                        {a.courseTitle}
                      </a>
                      {a.mandatory && <Muted as="span"> · обязательное</Muted>}
                    </td>
                    <td>{audienceText(a)}</td>
                    <td>{formatDay(a.dueDate)}</td>
                    <td>{a.recurrenceMonths ? `каждые ${a.recurrenceMonths} мес.` : '—'}</td>
                    <td>{a.createdBy.fullName}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </TableScroll>
        )}
      </PagedList>
    </Page>
  );
}

const Section = styled(Card).attrs({ as: 'section' })`
  margin-bottom: 24px;
  h2 {
    margin: 0 0 16px;
    font-size: 18px;
  }
`;

const Filters = styled.div`
  display: grid;
  grid-template-columns: minmax(200px, 2fr) repeat(2, minmax(140px, 1fr));
  gap: 12px;
  margin-bottom: 16px;
  @media (max-width: 640px) {
    grid-template-columns: 1fr;
  }
`;

export const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  th,
  td {
    text-align: left;
    padding: 8px;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  }
`;
