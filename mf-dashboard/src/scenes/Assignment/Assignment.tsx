import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ASSIGNMENT_STATUSES, ASSIGNMENT_STATUS_LABELS, STAFF_ROLES, type AssignmentStatus } from '@portal/contracts';
import {
  Button,
  Card,
  ErrorBox,
  ExportButtons,
  FilterInput,
  FilterSelect,
  Input,
  Label,
  Muted,
  PagedList,
  TableScroll,
  useDebounced,
  usePagedFilters,
} from '@portal/ui';
import { errorMessage, navigate, paths, useAuth } from '@portal/web-core';
import { daysLeftText, downloadCertificate, formatDay } from '@portal/web-core/assignments';
import { readAgain } from '@portal/web-core/query';
import {
  assignmentKeys,
  downloadAssignmentReport,
  extendAssignment,
  fetchAssignment,
  fetchAssignmentPeople,
  fetchAssignmentReport,
} from '../../api/assignments';
import { ActivityChart } from '../../components/ActivityChart';
import { RecordPage } from '../../components/RecordPage';
import { Table, audienceText } from '../Assignments/Assignments';

/** /assignments/:id: the people it reaches now, each with their status; extending the due date. */
export function AssignmentDetail({ id }: { id: string }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [newDue, setNewDue] = useState('');
  const { filters, filterProps, page, setPage } = usePagedFilters({ status: '' as AssignmentStatus | '', department: '' });
  const { status } = filters;
  const department = useDebounced(filters.department.trim(), 400);
  const report = useQuery({
    queryKey: assignmentKeys.report(id, department),
    queryFn: ({ signal }) => fetchAssignmentReport(id, signal, department),
    placeholderData: keepPreviousData,
  });
  const assignment = useQuery({ queryKey: assignmentKeys.one(id), queryFn: ({ signal }) => fetchAssignment(id, signal) });
  const people = useQuery({
    queryKey: assignmentKeys.people(id, page, status, department),
    queryFn: ({ signal }) => fetchAssignmentPeople(id, page, status, signal, department),
    placeholderData: keepPreviousData,
  });
  const extend = useMutation({
    mutationFn: (userId?: string) => extendAssignment(id, { dueDate: newDue, userId }),
    onSuccess: () => readAgain(queryClient, assignmentKeys.all),
  });
  const canExtend = !!user && STAFF_ROLES.includes(user.role);

  return (
    <RecordPage query={assignment} failed="Не удалось загрузить назначение">
      {(a) => (
        <>
          <h1>{a.courseTitle}</h1>
          <Muted>
            {audienceText(a)} · срок {formatDay(a.dueDate)}
            {a.recurrenceMonths ? ` · повтор каждые ${a.recurrenceMonths} мес.` : ''}
            {a.message ? ` · «${a.message}»` : ''}
          </Muted>
          {report.data && (
            <Figures aria-label="Отчёт по назначению" data-testid="assignment-report">
              <Figure>
                <span>Назначено</span>
                <strong>{report.data.assigned}</strong>
              </Figure>
              <Figure>
                <span>Завершили</span>
                <strong>{report.data.completed}</strong>
              </Figure>
              <Figure>
                <span>В процессе</span>
                <strong>{report.data.inProgress}</strong>
              </Figure>
              <Figure>
                <span>Не начали</span>
                <strong>{report.data.notStarted}</strong>
              </Figure>
              <Figure $danger={report.data.overdue > 0}>
                <span>Просрочили</span>
                <strong>{report.data.overdue}</strong>
              </Figure>
              <Figure>
                <span>Выполнено</span>
                <strong>{report.data.percent}%</strong>
              </Figure>
            </Figures>
          )}
          {report.data && report.data.completedByDay.length > 0 && (
            <ActivityChart days={report.data.completedByDay} label="Завершения по дням" />
          )}
          <Toolbar>
            <FilterSelect
              label="Фильтр по статусу"
              {...filterProps('status')}
              anyLabel="Все статусы"
              options={ASSIGNMENT_STATUSES}
              labels={ASSIGNMENT_STATUS_LABELS}
            />
            <FilterInput
              label="Фильтр по подразделению"
              placeholder="Подразделение"
              maxLength={120}
              {...filterProps('department')}
            />
            <ExportButtons onExport={(format) => downloadAssignmentReport(id, format, status, department)} />
          </Toolbar>
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
          <PagedList
            query={people}
            failed={(error) => <ErrorBox>{errorMessage(error, 'Не удалось загрузить людей')}</ErrorBox>}
            empty={<Muted>В назначении пока никого нет</Muted>}
            onPage={setPage}
          >
            {(rows) => (
              <TableScroll aria-label="Люди назначения, таблица">
                <Table aria-label="Люди назначения">
                  <thead>
                    <tr>
                      <th>ФИО</th>
                      <th>Подразделение</th>
                      <th>Статус</th>
                      <th>Срок</th>
                      <th>Осталось</th>
                      <th>Сертификат</th>
                      {canExtend && <th />}
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((p) => (
                      <Row key={p.userId} $overdue={p.status === 'overdue'} data-status={p.status}>
                        <td>
                          <a
                            href={paths.assignmentPerson(p.userId)}
                            onClick={(e) => {
                              if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                              e.preventDefault();
                              navigate(paths.assignmentPerson(p.userId));
                            }}
                          >
                            {p.fullName}
                          </a>
                        </td>
                        <td>{p.department || '—'}</td>
                        <td>{ASSIGNMENT_STATUS_LABELS[p.status]}</td>
                        <td>{formatDay(p.dueDate)}</td>
                        <td>{daysLeftText(p)}</td>
                        <td>
                          {p.certificateNumber ? (
                            <Button
                              type="button"
                              $variant="link"
                              aria-label={`Скачать сертификат ${p.certificateNumber}`}
                              onClick={() =>
                                void downloadCertificate(p.certificateNumber!).catch((err: unknown) =>
                                  console.error('Не удалось скачать сертификат:', errorMessage(err)),
                                )
                              }
                            >
                              {p.certificateNumber}
                            </Button>
                          ) : (
                            '—'
                          )}
                        </td>
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
              </TableScroll>
            )}
          </PagedList>
        </>
      )}
    </RecordPage>
  );
}

const Figures = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(130px, 1fr));
  gap: 12px;
  margin: 16px 0;
`;

const Figure = styled(Card)<{ $danger?: boolean }>`
  display: grid;
  gap: 4px;
  color: ${({ theme, $danger }) => ($danger ? theme.colors.danger : 'inherit')};
  strong {
    font-size: 24px;
  }
`;

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: center;
  justify-content: space-between;
  margin: 16px 0;
`;

const Extend = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: end;
  margin: 16px 0;
`;

const Row = styled.tr<{ $overdue: boolean }>`
  color: ${({ theme, $overdue }) => ($overdue ? theme.colors.danger : 'inherit')};
`;
