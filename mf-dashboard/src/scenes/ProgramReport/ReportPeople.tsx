import styled from 'styled-components';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable, ErrorBox, Muted, PagedList, TableHead, TableScroll } from '@portal/ui';
import { errorMessage, paths } from '@portal/web-core';
import { formatDay } from '@portal/web-core/assignments';
import { fetchProgramPeople, programKeys, type ProgramPeopleFilters } from '../../api/programs';
import { ProgramStatusBadge, StageStatusBadge } from '../../components/programs/StageStatusBadge';
import { follow } from '../../components/programs/links';
import { formatDate } from '../../format';

interface ReportPeopleProps {
  assignmentId: string;
  page: number;
  filters: ProgramPeopleFilters;
  /** The program's stage count, for «1 из 3» (null until the report is read). */
  stageTotal: number | null;
  onPage: (page: number) => void;
}

const COLUMNS = ['ФИО', 'Подразделение', 'Статус', 'Текущий этап', 'Этапов пройдено'];

/** The report's people, a page at a time: each one's current stage, its status and due day; a link to their stages. */
export function ReportPeople({ assignmentId, page, filters, stageTotal, onPage }: ReportPeopleProps) {
  const people = useQuery({
    queryKey: programKeys.people(assignmentId, page, filters),
    queryFn: ({ signal }) => fetchProgramPeople(assignmentId, page, filters, signal),
    placeholderData: keepPreviousData,
  });
  const filtered = !!(filters.department || filters.status);
  return (
    <PagedList
      query={people}
      failed={(error) => <ErrorBox>{errorMessage(error, 'Не удалось загрузить людей')}</ErrorBox>}
      empty={<Muted>{filtered ? 'Под эти фильтры никого нет' : 'В назначении пока никого нет'}</Muted>}
      onPage={onPage}
    >
      {(rows, busy) => (
        <TableScroll aria-label="Люди программы, таблица">
          <DataTable aria-label="Люди программы" aria-busy={busy}>
            <TableHead columns={COLUMNS} />
            <tbody>
              {rows.map((p) => {
                const to = paths.programPerson(assignmentId, p.userId);
                return (
                  <tr key={p.userId} data-status={p.status}>
                    <td>
                      <a href={to} onClick={follow(to)}>
                        {p.fullName}
                      </a>
                      <Small>{p.email}</Small>
                    </td>
                    <td>{p.department || '—'}</td>
                    <td>
                      <ProgramStatusBadge status={p.status} />
                      {p.completedAt && <Small>{formatDate(p.completedAt)}</Small>}
                    </td>
                    <td>
                      {p.currentStage ? (
                        <>
                          {p.currentStage.title} <StageStatusBadge status={p.currentStage.status} />
                          <Small>
                            {p.currentStage.dueDate ? `до ${formatDay(p.currentStage.dueDate)}` : 'срок ещё не начался'}
                          </Small>
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td>{stageTotal === null ? p.stagesCompleted : `${p.stagesCompleted} из ${stageTotal}`}</td>
                  </tr>
                );
              })}
            </tbody>
          </DataTable>
        </TableScroll>
      )}
    </PagedList>
  );
}

const Small = styled.small`
  display: block;
  color: ${({ theme }) => theme.colors.muted};
  overflow-wrap: anywhere;
`;
