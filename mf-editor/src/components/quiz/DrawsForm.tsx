import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { Button, Input, Label, Muted } from '@portal/ui';
import { paths } from '@portal/web-core';
import { bankKey, fetchBank } from '../../api/content';
import type { DrawForm } from './quizDraft';

/**
 * «Вопросы из банка»: per tag of the course's bank, how many random questions each attempt draws
 * besides the fixed ones. The bank's tags (with their counts) are offered as suggestions.
 */
export function DrawsForm({
  courseId,
  quizId,
  value,
  onChange,
}: {
  courseId: string | null;
  quizId: string | null;
  value: DrawForm[];
  onChange: (draws: DrawForm[]) => void;
}) {
  const bank = useQuery({
    queryKey: bankKey(courseId ?? '', 1, ''),
    queryFn: ({ signal }) => fetchBank(courseId!, 1, '', signal),
    enabled: !!courseId,
  });
  const set = (i: number, patch: Partial<DrawForm>) => onChange(value.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  const listId = `bank-tags-${courseId ?? 'none'}`;
  return (
    <Section aria-label="Вопросы из банка">
      <strong>Вопросы из банка курса</strong>
      {!courseId ? (
        <Muted>Квиз не привязан к курсу: банка вопросов у него нет.</Muted>
      ) : (
        <>
          <Muted>
            Каждая попытка получает свою случайную выборку: столько вопросов с меткой, сколько указано. Ученик видит их после
            постоянных вопросов.{' '}
            <a href={paths.questionBank(courseId)} target="_blank" rel="noreferrer">
              Открыть банк вопросов
            </a>
          </Muted>
          <datalist id={listId}>
            {bank.data?.tags.map((t) => (
              <option key={t.tag} value={t.tag}>
                {`${t.tag} (${t.count})`}
              </option>
            ))}
          </datalist>
          {value.map((d, i) => (
            <Row key={i}>
              <Label>
                Метка
                <Input list={listId} value={d.tag} maxLength={50} onChange={(e) => set(i, { tag: e.target.value })} />
              </Label>
              <Label>
                Сколько вопросов
                <Input type="number" min={1} max={50} value={d.count} onChange={(e) => set(i, { count: e.target.value })} />
              </Label>
              <Button
                type="button"
                $variant="ghost"
                $size="sm"
                aria-label={`Убрать выборку ${i + 1}`}
                onClick={() => onChange(value.filter((_, j) => j !== i))}
              >
                Убрать
              </Button>
            </Row>
          ))}
          <div>
            <Button type="button" $variant="secondary" $size="sm" onClick={() => onChange([...value, { tag: '', count: '1' }])}>
              + Выборка из банка
            </Button>
          </div>
        </>
      )}
      {quizId && (
        <Muted>
          <a href={paths.quizAnalysis(quizId)} target="_blank" rel="noreferrer">
            Анализ вопросов
          </a>{' '}
          — трудность и различающая сила каждого вопроса по попыткам учеников.
        </Muted>
      )}
    </Section>
  );
}

const Section = styled.section`
  display: grid;
  gap: 10px;
  margin-top: 16px;
  padding-top: 12px;
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  p {
    margin: 0;
    font-size: 13px;
  }
`;
const Row = styled.div`
  display: grid;
  grid-template-columns: 2fr 1fr auto;
  gap: 10px;
  align-items: end;
`;
