import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ASSIGNMENT_STATUS_LABELS } from '@portal/contracts';
import { Muted, Pager, TableScroll } from '@portal/ui';
import { daysLeftText, formatDay } from '@portal/web-core/assignments';
import { assignmentKeys, fetchPersonAssignments } from '../../api/assignments';
import { RecordPage } from '../../components/RecordPage';
import { Table } from '../Assignments/Assignments';

/** /assignments/person/:userId: one person's assignments with their status (ADMIN, CURATOR, MANAGER). */
export function AssignmentPerson({ userId }: { userId: string }) {
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: assignmentKeys.person(userId, page),
    queryFn: ({ signal }) => fetchPersonAssignments(userId, page, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <RecordPage query={list} failed="Не удалось загрузить назначения">
      {(found) => {
        const { person, data } = found;
        return (
          <>
            <h1>{person.fullName}</h1>
            <Muted>
              {person.email}
              {person.department ? ` · ${person.department}` : ''}
            </Muted>
            {!data.length ? (
              <Muted>Назначенного обучения нет</Muted>
            ) : (
              <>
                <TableScroll aria-label="Назначения человека, таблица">
                  <Table aria-label="Назначения человека">
                    <thead>
                      <tr>
                        <th>Курс</th>
                        <th>Статус</th>
                        <th>Срок</th>
                        <th>Осталось</th>
                        <th>Завершён</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.map((a) => (
                        <Row key={a.assignmentId} $overdue={a.status === 'overdue'}>
                          <td>{a.courseTitle}</td>
                          <td>{ASSIGNMENT_STATUS_LABELS[a.status]}</td>
                          <td>{formatDay(a.dueDate)}</td>
                          <td>{daysLeftText(a)}</td>
                          <td>{a.completedAt ? new Date(a.completedAt).toLocaleDateString('ru-RU') : '—'}</td>
                        </Row>
                      ))}
                    </tbody>
                  </Table>
                </TableScroll>
                <Pager of={found} onPage={setPage} />
              </>
            )}
          </>
        );
      }}
    </RecordPage>
  );
}

const Row = styled.tr<{ $overdue: boolean }>`
  color: ${({ theme, $overdue }) => ($overdue ? theme.colors.danger : 'inherit')};
`;
