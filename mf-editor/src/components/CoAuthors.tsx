import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBox, Input, Label, Muted } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { addCourseCoAuthor, authorsKey, fetchCourseAuthors, removeCourseCoAuthor } from '../api/content';

/**
 * The course's owner and co-authors. The owner and an ADMIN (`canManage`) add a curator by email
 * and remove co-authors; everyone else who may open the editor sees the list.
 */
export function CoAuthors({ courseId, canManage }: { courseId: string; canManage: boolean }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const authors = useQuery({ queryKey: authorsKey(courseId), queryFn: ({ signal }) => fetchCourseAuthors(courseId, signal) });
  const change = useMutation({
    mutationFn: (action: { add: string } | { remove: string }) =>
      'add' in action ? addCourseCoAuthor(courseId, action.add) : removeCourseCoAuthor(courseId, action.remove),
    onSuccess: (answer, action) => {
      queryClient.setQueryData(authorsKey(courseId), answer);
      if ('add' in action) setEmail('');
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (email.trim()) change.mutate({ add: email.trim() });
  };

  const data = authors.data;
  return (
    <Section aria-labelledby="co-authors-title" data-testid="co-authors">
      <h3 id="co-authors-title">Авторы курса</h3>
      {authors.isPending ? (
        <Muted>Загрузка...</Muted>
      ) : authors.isError ? (
        <ErrorBox>{errorMessage(authors.error)}</ErrorBox>
      ) : (
        <>
          <Muted>Автор: {data?.owner ? `${data.owner.fullName} (${data.owner.email})` : 'не указан'}</Muted>
          {data?.coAuthors.length ? (
            <List aria-label="Соавторы">
              {data.coAuthors.map((person) => (
                <li key={person.id}>
                  <span>
                    {person.fullName} · {person.email}
                  </span>
                  {canManage && (
                    <Button
                      type="button"
                      $variant="ghost"
                      $size="sm"
                      disabled={change.isPending}
                      aria-label={`Убрать соавтора ${person.fullName}`}
                      onClick={() => change.mutate({ remove: person.id })}
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
        </>
      )}
      {canManage && (
        <AddForm onSubmit={submit}>
          <Label>
            Email куратора
            <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} maxLength={254} />
          </Label>
          <Button type="submit" disabled={change.isPending || !email.trim()}>
            Добавить соавтора
          </Button>
        </AddForm>
      )}
      {change.isError && <ErrorBox>{errorMessage(change.error)}</ErrorBox>}
    </Section>
  );
}

const Section = styled.section`
  display: grid;
  gap: 8px;
  margin-top: 24px;
  h3 {
    margin: 0;
  }
  p {
    margin: 0;
  }
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
const AddForm = styled.form`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: 8px;
`;
