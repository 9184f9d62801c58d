import styled from 'styled-components';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, EmptyState, Page, PagedList, PlainList } from '@portal/ui';
import { navigate, useSearch } from '@portal/web-core';
import { MY_PROGRAMS_PAGE_SIZE, fetchMyPrograms, myProgramKeys } from '../../api/myPrograms';
import { ProgramLine } from '../../components/MyPrograms';

/** The page the address asks for (?page=N), the first when it names none or nonsense. */
const pageFrom = (search: string): number => {
  const page = Number(new URLSearchParams(search).get('page'));
  return Number.isInteger(page) && page > 1 ? page : 1;
};

/** /my-programs: all of a learner's programs, a page at a time; the page is in the address, so «Назад» returns to it. */
export function MyPrograms() {
  const page = pageFrom(useSearch());
  const list = useQuery({
    queryKey: myProgramKeys.list(page, MY_PROGRAMS_PAGE_SIZE),
    queryFn: ({ signal }) => fetchMyPrograms(page, MY_PROGRAMS_PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
  });
  const showPage = (next: number) => navigate(next > 1 ? `${window.location.pathname}?page=${next}` : window.location.pathname);
  return (
    <Page data-mf="mf_dashboard">
      <h1>Мои программы</h1>
      <PagedList
        query={list}
        failed="Не удалось загрузить программы"
        empty={
          <EmptyState
            title="Программ пока нет"
            hint="Когда вам назначат программу обучения, она появится здесь и на главной странице."
          />
        }
        onPage={showPage}
      >
        {(rows, busy) => (
          <PlainList $gap={16} aria-label="Программы" aria-busy={busy}>
            {rows.map((p) => (
              <Item key={p.assignmentId}>
                <ProgramLine program={p} />
              </Item>
            ))}
          </PlainList>
        )}
      </PagedList>
    </Page>
  );
}

const Item = styled(Card).attrs({ as: 'li' })`
  @media (max-width: 480px) {
    padding: 16px;
  }
`;
