import { useState } from 'react';
import styled from 'styled-components';
import { MAX_PROGRAM_CO_AUTHORS, PROGRAM_MSG, type Program } from '@portal/contracts';
import { Button, Muted } from '@portal/ui';
import { CuratorPicker } from './CuratorPicker';

interface ProgramCoAuthorsProps {
  owner: Program['owner'];
  /** The co-authors as the program was read, with their names. */
  saved: Program['coAuthors'];
  coAuthorIds: readonly string[];
  /** The owner and an ADMIN change the list (the server refuses anyone else); the rest read it. */
  canManage: boolean;
  /** The program is read-only for this person or archived: nothing is changed here either. */
  readOnly: boolean;
  onChange: (coAuthorIds: string[]) => void;
}

/**
 * «Соавторы»: the owner and the co-authors by name. The list is part of the form and is saved with
 * it; the program names those it has, and those just picked are known from the search.
 */
export function ProgramCoAuthors({ owner, saved, coAuthorIds, canManage, readOnly, onChange }: ProgramCoAuthorsProps) {
  const [picked, setPicked] = useState<Record<string, string>>({});
  const [adding, setAdding] = useState(false);
  const editable = canManage && !readOnly;
  const nameOf = (id: string) => picked[id] || saved.find((c) => c.id === id)?.fullName || 'Пользователь без имени';
  const full = coAuthorIds.length >= MAX_PROGRAM_CO_AUTHORS;

  return (
    <Section aria-labelledby="program-co-authors-title" data-testid="program-co-authors">
      <h2 id="program-co-authors-title">Соавторы</h2>
      <Muted>Автор: {owner.fullName}</Muted>
      {coAuthorIds.length ? (
        <List aria-label="Соавторы программы">
          {coAuthorIds.map((id) => (
            <li key={id}>
              <span>{nameOf(id)}</span>
              {editable && (
                <Button
                  type="button"
                  $variant="ghost"
                  $size="sm"
                  aria-label={`Убрать соавтора ${nameOf(id)}`}
                  onClick={() => onChange(coAuthorIds.filter((other) => other !== id))}
                >
                  Убрать
                </Button>
              )}
            </li>
          ))}
        </List>
      ) : (
        <Muted>Соавторов нет</Muted>
      )}
      {!canManage && !readOnly && <Muted role="note">{PROGRAM_MSG.coAuthorsOwnerOnly}.</Muted>}
      {editable && full && <Muted>{PROGRAM_MSG.tooManyCoAuthors}.</Muted>}
      {editable && !full && !adding && (
        <div>
          <Button type="button" $variant="outline" onClick={() => setAdding(true)}>
            Добавить соавтора
          </Button>
        </div>
      )}
      {editable && !full && adding && (
        <>
          <CuratorPicker
            taken={[owner.id, ...coAuthorIds]}
            onPick={(curator) => {
              setPicked((known) => ({ ...known, [curator.id]: curator.fullName }));
              onChange([...coAuthorIds, curator.id]);
            }}
          />
          <div>
            <Button type="button" $variant="ghost" onClick={() => setAdding(false)}>
              Готово
            </Button>
          </div>
        </>
      )}
    </Section>
  );
}

const Section = styled.section`
  display: grid;
  gap: 8px;
  min-width: 0;
`;
const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
    padding: 4px 0;
    overflow-wrap: anywhere;
  }
`;
