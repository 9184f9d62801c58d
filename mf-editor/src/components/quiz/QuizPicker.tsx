import { useDeferredValue, useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import type { QuizSummary } from '@portal/contracts';
import { Button, ErrorBox, Input, Muted } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { useBackend } from '../../backend/backend';
import { Dialog, DialogActions } from '../Dialog';

const date = new Intl.DateTimeFormat('ru-RU');

interface QuizPickerProps {
  onPick: (quiz: QuizSummary) => void;
  onCreate: () => void;
  onClose: () => void;
}

/** The quiz block's picker: quizzes kept by the server, newest first, searchable by title. */
export function QuizPicker({ onPick, onCreate, onClose }: QuizPickerProps) {
  const backend = useBackend();
  const [search, setSearch] = useState('');
  const term = useDeferredValue(search.trim());
  const list = useQuery({
    queryKey: ['editor', backend.demo, 'quizzes', term],
    queryFn: () => backend.listQuizzes(term || undefined),
  });

  return (
    <Dialog title="Выбор квиза" onClose={onClose}>
      <Input
        type="search"
        value={search}
        placeholder="Поиск квиза..."
        aria-label="Поиск квиза"
        onChange={(e) => setSearch(e.target.value)}
      />
      {list.isPending && <Muted role="status">Загрузка квизов...</Muted>}
      {list.isError && <ErrorBox>{errorMessage(list.error)}</ErrorBox>}
      {list.data && list.data.length === 0 && <Muted>Квизы не найдены</Muted>}
      {list.data && list.data.length > 0 && (
        <List aria-label="Квизы">
          {list.data.map((quiz) => (
            <li key={quiz.id}>
              <div>
                <strong>{quiz.title}</strong>
                <Muted as="span">
                  Вопросов: {quiz.questionsCount} · Обновлён: {date.format(new Date(quiz.updatedAt))}
                </Muted>
              </div>
              <Button type="button" $size="sm" onClick={() => onPick(quiz)} aria-label={`Выбрать квиз «${quiz.title}»`}>
                Выбрать
              </Button>
            </li>
          ))}
        </List>
      )}
      <DialogActions>
        <Button type="button" $variant="outline" onClick={onCreate}>
          Создать новый квиз
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const List = styled.ul`
  list-style: none;
  margin: 12px 0 0;
  padding: 0;
  display: grid;
  gap: 8px;
  max-height: 50vh;
  overflow: auto;
  li {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 12px;
    padding: 10px 12px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius};
  }
  li div {
    display: grid;
    gap: 2px;
    min-width: 0;
  }
  strong {
    overflow-wrap: anywhere;
  }
  span {
    font-size: 13px;
  }
`;
