import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PROGRAM_PERSON_STATUSES, PROGRAM_PERSON_STATUS_LABELS, STAFF_ROLES, type ProgramPersonStatus } from '@portal/contracts';
import {
  Button,
  ConfirmDialog,
  DataTable,
  ErrorBox,
  ExportButtons,
  FilterInput,
  FilterSelect,
  Muted,
  TableHead,
  TableScroll,
  useDebounced,
} from '@portal/ui';
import { errorMessage, navigate, paths, useAuth } from '@portal/web-core';
import { formatDay } from '@portal/web-core/assignments';
import { readAgain } from '@portal/web-core/query';
import {
  deleteProgramAssignment,
  downloadProgramReport,
  fetchProgramAssignment,
  fetchProgramReport,
  programKeys,
  type ProgramPeopleFilters,
} from '../../api/programs';
import { RecordPage } from '../../components/RecordPage';
import { ReportFigures } from '../../components/programs/ReportFigures';
import { audienceLabel } from '../../components/programs/format';
import { TitleBar } from '../../components/programs/layout';
import { follow } from '../../components/programs/links';
import { useUrlParams } from '../../components/programs/useUrlParams';
import { ReportPeople } from './ReportPeople';

const URL_KEYS = ['department', 'status'] as const;
const isPersonStatus = (s: string): s is ProgramPersonStatus => (PROGRAM_PERSON_STATUSES as readonly string[]).includes(s);

/** /program-assignments/:id: who is on which stage, who is late, the people one by one; its export. */
export function ProgramReport({ id }: { id: string }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const isStaff = !!user && STAFF_ROLES.includes(user.role);
  const { params, setFilter, setPage } = useUrlParams(URL_KEYS);
  const department = useDebounced(params.department.trim(), 400);
  const filters: ProgramPeopleFilters = { department, status: isPersonStatus(params.status) ? params.status : '' };
  const [asking, setAsking] = useState(false);

  const assignment = useQuery({
    queryKey: programKeys.assignment(id),
    queryFn: ({ signal }) => fetchProgramAssignment(id, signal),
  });
  const report = useQuery({
    queryKey: programKeys.report(id, department),
    queryFn: ({ signal }) => fetchProgramReport(id, department, signal),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: () => deleteProgramAssignment(id),
    onSuccess: async () => {
      await readAgain(queryClient, programKeys.all);
      navigate(paths.programs());
    },
    onError: () => setAsking(false),
  });

  return (
    <RecordPage query={assignment} failed="Не удалось загрузить назначение программы">
      {(a) => (
        <>
          <Button type="button" $variant="link" onClick={() => navigate(paths.programs())}>
            ← Программы
          </Button>
          <TitleBar>
            <h1>{a.programTitle}</h1>
            {isStaff && (
              <Button type="button" $variant="destructive" onClick={() => setAsking(true)}>
                Удалить назначение
              </Button>
            )}
          </TitleBar>
          <Muted>
            {audienceLabel(a.audience)} · назначена {formatDay(a.startDate)}
            {a.mandatory ? ' · обязательная' : ''}
            {a.recurrenceMonths ? ` · повтор каждые ${a.recurrenceMonths} мес.` : ''} · назначил {a.createdBy.fullName}
            {a.message ? ` · «${a.message}»` : ''}
          </Muted>
          {isStaff && (
            <Muted>
              <a href={paths.programEditor(a.programId)} onClick={follow(paths.programEditor(a.programId))}>
                Открыть программу в редакторе
              </a>
            </Muted>
          )}
          {remove.isError && <ErrorBox>{errorMessage(remove.error, 'Не удалось удалить назначение')}</ErrorBox>}

          {report.isError && <ErrorBox>{errorMessage(report.error, 'Не удалось загрузить отчёт')}</ErrorBox>}
          {report.data && <ReportFigures report={report.data} />}
          {report.data && report.data.stages.length > 0 && (
            <TableScroll aria-label="Этапы программы, таблица">
              <DataTable aria-label="Этапы программы">
                <TableHead columns={['Этап', 'Сейчас на этапе', 'Прошли', 'Просрочили']} />
                <tbody>
                  {report.data.stages.map((s, i) => (
                    <tr key={s.key}>
                      <td>
                        {i + 1}. {s.title}
                      </td>
                      <td>{s.current}</td>
                      <td>{s.completed}</td>
                      <Danger $on={s.overdue > 0}>{s.overdue}</Danger>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
            </TableScroll>
          )}

          <Toolbar role="search" aria-label="Фильтры отчёта">
            <FilterSelect
              label="Фильтр по статусу"
              value={filters.status}
              onValue={(value) => setFilter('status', value)}
              anyLabel="Все статусы"
              options={PROGRAM_PERSON_STATUSES}
              labels={PROGRAM_PERSON_STATUS_LABELS}
            />
            <FilterInput
              label="Фильтр по подразделению"
              placeholder="Подразделение"
              maxLength={120}
              value={params.department}
              onValue={(value) => setFilter('department', value)}
            />
            <ExportButtons onExport={(format) => downloadProgramReport(id, format, filters)} />
          </Toolbar>
          <ReportPeople
            assignmentId={id}
            page={params.page}
            filters={filters}
            stageTotal={report.data?.stages.length ?? null}
            onPage={setPage}
          />

          {asking && (
            <ConfirmDialog
              title="Удалить назначение программы?"
              message={`Программа «${a.programTitle}» перестанет быть назначенной: ${audienceLabel(a.audience)}. Пройденные курсы у людей останутся.`}
              confirmLabel="Удалить"
              busy={remove.isPending}
              onConfirm={() => remove.mutate()}
              onCancel={() => setAsking(false)}
            />
          )}
        </>
      )}
    </RecordPage>
  );
}

const Toolbar = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 200px) minmax(0, 260px) 1fr;
  gap: 12px;
  align-items: start;
  margin: 16px 0;
  @media (max-width: 720px) {
    grid-template-columns: minmax(0, 1fr);
  }
`;

const Danger = styled.td<{ $on: boolean }>`
  color: ${({ theme, $on }) => ($on ? theme.colors.danger : 'inherit')};
`;
