import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { User } from '@portal/contracts';
import { Button, busyMark, EmptyNote, Input, Label, PagedList, useDebounced } from '@portal/ui';
import { coAuthorKeys, fetchCurators } from './coAuthors';

interface CuratorPickerProps {
  /** Who may not be added: the owner and the co-authors already there. */
  taken: readonly string[];
  onPick: (curator: User) => void;
}

/** A search over the directory's curators (name, email or department); a found one is added with a click. */
export function CuratorPicker({ taken, onPick }: CuratorPickerProps) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const term = useDebounced(search.trim(), 300);
  const found = useQuery({
    queryKey: coAuthorKeys.curators(term, page),
    queryFn: ({ signal }) => fetchCurators(term, page, signal),
    placeholderData: keepPreviousData,
  });

  return (
    <Root>
      <Label>
        Найти куратора
        <Input
          type="search"
          placeholder="ФИО, email или подразделение"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </Label>
      <PagedList
        query={found}
        failed="Не удалось загрузить кураторов"
        empty={<Empty>{term ? `Кураторов не нашлось по запросу «${term}»` : 'Кураторов пока нет'}</Empty>}
        onPage={setPage}
      >
        {(rows, busy) => (
          <Found aria-label="Найденные кураторы" aria-busy={busy}>
            {rows.map((curator) => {
              const already = taken.includes(curator.id);
              return (
                <li key={curator.id}>
                  <span>
                    <strong>{curator.fullName}</strong> <small>{curator.email}</small>
                  </span>
                  <Button
                    type="button"
                    $variant="outline"
                    $size="sm"
                    disabled={already}
                    aria-label={already ? `${curator.fullName}: уже автор программы` : `Добавить соавтора: ${curator.fullName}`}
                    onClick={() => onPick(curator)}
                  >
                    {already ? 'Уже в списке' : 'Добавить'}
                  </Button>
                </li>
              );
            })}
          </Found>
        )}
      </PagedList>
    </Root>
  );
}

const Root = styled.div`
  display: grid;
  gap: 8px;
  min-width: 0;
`;
const Empty = styled(EmptyNote)`
  padding: 12px 0;
`;
const Found = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 4px;
  ${busyMark}
  li {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
    overflow-wrap: anywhere;
  }
  small {
    color: ${({ theme }) => theme.colors.muted};
  }
`;
