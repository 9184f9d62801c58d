import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ROLE_LABELS, type User } from '@portal/contracts';
import { Button, busyMark, EmptyNote, Input, Label, PagedList, useDebounced } from '@portal/ui';
import { assignmentKeys, fetchLearners } from '../api/assignments';

/** Who has been picked: the id the assignment sends, and what the chip says. */
export interface PickedPerson {
  id: string;
  fullName: string;
}

interface Props {
  picked: readonly PickedPerson[];
  onChange: (picked: PickedPerson[]) => void;
}

const placeOf = (user: User) => [user.email, user.department].filter(Boolean).join(' · ');

/**
 * «Выбранные сотрудники»: a search over the directory's learners (by name, email or department),
 * paged, each found person added with a click; those picked stay as chips until removed.
 */
export function PeoplePicker({ picked, onChange }: Props) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const term = useDebounced(search.trim(), 300);
  const found = useQuery({
    queryKey: assignmentKeys.learners(term, page),
    queryFn: ({ signal }) => fetchLearners(term, page, signal),
    placeholderData: keepPreviousData,
  });
  const has = (id: string) => picked.some((p) => p.id === id);

  return (
    <Root>
      {picked.length > 0 && (
        <Chips aria-label="Выбранные сотрудники">
          {picked.map((person) => (
            <li key={person.id}>
              <Chip>
                {person.fullName}
                <Button
                  type="button"
                  $variant="ghost"
                  $size="sm"
                  aria-label={`Убрать: ${person.fullName}`}
                  onClick={() => onChange(picked.filter((p) => p.id !== person.id))}
                >
                  ×
                </Button>
              </Chip>
            </li>
          ))}
        </Chips>
      )}
      <Label>
        Найти сотрудника
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
        failed="Не удалось загрузить сотрудников"
        empty={<EmptyNote>{term ? `Никого не нашлось по запросу «${term}»` : 'Обучающихся пока нет'}</EmptyNote>}
        onPage={setPage}
      >
        {(rows, busy) => (
          <Found aria-label="Найденные сотрудники" aria-busy={busy}>
            {rows.map((user) => (
              <li key={user.id}>
                <span>
                  <strong>{user.fullName}</strong>
                  <small>
                    {ROLE_LABELS[user.role]}
                    {placeOf(user) && ` · ${placeOf(user)}`}
                  </small>
                </span>
                <Button
                  type="button"
                  $variant="outline"
                  $size="sm"
                  disabled={has(user.id)}
                  aria-label={has(user.id) ? `${user.fullName}: выбран` : `Выбрать: ${user.fullName}`}
                  onClick={() => onChange([...picked, { id: user.id, fullName: user.fullName }])}
                >
                  {has(user.id) ? 'Выбран' : 'Выбрать'}
                </Button>
              </li>
            ))}
          </Found>
        )}
      </PagedList>
    </Root>
  );
}

const Root = styled.div`
  grid-column: 1 / -1;
  display: grid;
  gap: 8px;
  min-width: 0;
`;
const Chips = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  list-style: none;
  margin: 0;
  padding: 0;
`;
const Chip = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 2px;
  max-width: 100%;
  padding-left: 10px;
  border-radius: 16px;
  overflow-wrap: anywhere;
  background: ${({ theme }) => theme.colors.surfaceAlt};
  color: ${({ theme }) => theme.colors.text};
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
    gap: 12px;
    padding: 6px 8px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 8px;
  }
  li > span {
    display: grid;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  small {
    color: ${({ theme }) => theme.colors.muted};
  }
`;
