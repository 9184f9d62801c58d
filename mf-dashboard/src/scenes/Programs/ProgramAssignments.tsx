import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import styled from 'styled-components';
import { Muted, PagedList } from '@portal/ui';
import { paths } from '@portal/web-core';
import { formatDay } from '@portal/web-core/assignments';
import { fetchProgramAssignments, programKeys } from '../../api/programs';
import { audienceLabel } from '../../components/programs/format';
import { follow } from '../../components/programs/links';

/** A program's assignments (read when its list is opened), each a link to its report. */
export function ProgramAssignments({ programId, title }: { programId: string; title: string }) {
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: programKeys.assignments(programId, page),
    queryFn: ({ signal }) => fetchProgramAssignments(programId, page, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <PagedList
      query={list}
      failed="Не удалось загрузить назначения программы"
      empty={<Muted>Программу пока не назначали</Muted>}
      onPage={setPage}
    >
      {(rows, busy) => (
        <List aria-label={`Назначения программы «${title}»`} aria-busy={busy}>
          {rows.map((a) => (
            <li key={a.id}>
              <a href={paths.programReport(a.id)} onClick={follow(paths.programReport(a.id))}>
                {audienceLabel(a.audience)}
              </a>
              <Muted as="span">
                {' '}
                · с {formatDay(a.startDate)}
                {a.mandatory ? ' · обязательная' : ''}
                {a.recurrenceMonths ? ` · повтор каждые ${a.recurrenceMonths} мес.` : ''} · назначил {a.createdBy.fullName}
              </Muted>
            </li>
          ))}
        </List>
      )}
    </PagedList>
  );
}

const List = styled.ul`
  margin: 8px 0 0;
  padding-left: 20px;
  display: grid;
  gap: 4px;
  overflow-wrap: anywhere;
`;
