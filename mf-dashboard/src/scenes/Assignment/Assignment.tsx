import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ASSIGNMENT_STATUS_LABELS, STAFF_ROLES } from '@portal/contracts';
import { Button, ErrorBox, Input, Label, Muted, Page, Pager } from '@portal/ui';
import { daysLeftText, errorMessage, formatDay, useAuth } from '@portal/web-core';
import {
  PEOPLE_PAGE_SIZE,
  assignmentKeys,
  extendAssignment,
  fetchAssignment,
  fetchAssignmentPeople,
} from '../../api/assignments';
import { Table, audienceText } from '../Assignments/Assignments';

/** /assignments/:id: the people it reaches now, each with their status; extending the due date. */
export function AssignmentDetail({ id }: { id: string }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [newDue, setNewDue] = useState('');
  const assignment = useQuery({ queryKey: assignmentKeys.one(id), queryFn: ({ signal }) => fetchAssignment(id, signal) });
  const people = useQuery({
    queryKey: assignmentKeys.people(id, page),
    queryFn: ({ signal }) => fetchAssignmentPeople(id, page, signal),
    placeholderData: keepPreviousData,
  });
  const extend = useMutation({
    mutationFn: (userId?: string) => extendAssignment(id, { dueDate: newDue, userId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assignmentKeys.all }),
  });
  const canExtend = !!user && STAFF_ROLES.includes(user.role);

  if (assignment.isPending) return <Page data-mf="mf_dashboard">Загрузка...</Page>;
  if (assignment.isError)
    return (
      <Page data-mf="mf_dashboard">
        <ErrorBox>{errorMessage(assignment.error, 'Не удалось загрузить назначение')}</ErrorBox>
      </Page>
    );
  const a = assignment.data;
  return (
    <Page data-mf="mf_dashboard">
      <h1>{a.courseTitle}</h1>
      <Muted>
        {audienceText(a)} · срок {formatDay(a.dueDate)}
        {a.recurrenceMonths ? ` · повтор каждые ${a.recurrenceMonths} мес.` : ''}
        {a.message ? ` · «${a.message}»` : ''}
      </Muted>
      {canExtend && (
        <Extend>
          <Label>
            Новый срок
            <Input type="date" value={newDue} onChange={(e) => setNewDue(e.target.value)} />
          </Label>
          <Button type="button" disabled={!newDue || extend.isPending} onClick={() => extend.mutate(undefined)}>
            Продлить для всех
          </Button>
          {extend.isError && <ErrorBox>{errorMessage(extend.error, 'Не удалось продлить срок')}</ErrorBox>}
        </Extend>
      )}
      {people.isPending ? (
        <Muted>Загрузка...</Muted>
      ) : people.isError ? (
        <ErrorBox>{errorMessage(people.error, 'Не удалось загрузить людей')}</ErrorBox>
      ) : !people.data.data.length ? (
        <Muted>В назначении пока никого нет</Muted>
      ) : (
        <>
          <Table aria-label="Люди назначения">
            <thead>
              <tr>
                <th>ФИО</th>
                <th>Подразделение</th>
                <th>Статус</th>
                <th>Срок</th>
                <th>Осталось</th>
                {canExtend && <th />}
              </tr>
            </thead>
            <tbody>
              {people.data.data.map((p) => (
                <Row key={p.userId} $overdue={p.status === 'overdue'} data-status={p.status}>
                  <td>{p.fullName}</td>
                  <td>{p.department || '—'}</td>
                  <td>{ASSIGNMENT_STATUS_LABELS[p.status]}</td>
                  <td>{formatDay(p.dueDate)}</td>
                  <td>{daysLeftText(p)}</td>
                  {canExtend && (
                    <td>
                      <Button
                        type="button"
                        $variant="outline"
                        $size="sm"
                        disabled={!newDue || extend.isPending}
                        aria-label={`Продлить срок для ${p.fullName}`}
                        onClick={() => extend.mutate(p.userId)}
                      >
                        Продлить
                      </Button>
                    </td>
                  )}
                </Row>
              ))}
            </tbody>
          </Table>
          <Pager page={page} total={people.data.total} limit={PEOPLE_PAGE_SIZE} onPage={setPage} />
        </>
      )}
    </Page>
  );
}

const Extend = styled.div`
  display: flex;
  gap: 12px;
  align-items: end;
  margin: 16px 0;
`;

const Row = styled.tr<{ $overdue: boolean }>`
  color: ${({ theme, $overdue }) => ($overdue ? theme.colors.danger : 'inherit')};
`;
