import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { ANALYSIS_MSG, ITEM_FLAG_TEXT, QUESTION_TYPE_LABELS, type HistogramBar, type ItemStats } from '@portal/contracts';
import { BulletList, Muted, Stack } from '@portal/ui';
import { analysisKey, fetchQuizAnalysis } from '../../api/analysis';
import { RecordPage } from '../../components/RecordPage';

const percent = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 1 });
const correlation = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const seconds = new Intl.NumberFormat('ru-RU', { style: 'unit', unit: 'second', unitDisplay: 'short', maximumFractionDigits: 0 });

/**
 * /analysis/:quizId: «Анализ вопросов» of a quiz for ADMIN and the curators of its course: the score
 * histogram, and per question its difficulty, how well it separates strong and weak learners, the
 * choices made and the time taken, with plain-Russian flags. Counted on the server over the latest
 * attempts (the sample size is said).
 */
export function QuizAnalysis({ quizId }: { quizId: string }) {
  const report = useQuery({ queryKey: analysisKey(quizId), queryFn: ({ signal }) => fetchQuizAnalysis(quizId, signal) });
  return (
    <RecordPage query={report} failed="Не удалось загрузить анализ">
      {({ quizTitle, sampleSize, totalAttempts, histogram, items }) => (
        <>
          <h1>
            {ANALYSIS_MSG.title}: «{quizTitle}»
          </h1>
          <Muted role="status">
            {sampleSize === totalAttempts
              ? `Посчитано по всем завершённым попыткам: ${sampleSize}.`
              : `Посчитано по последним ${sampleSize} завершённым попыткам из ${totalAttempts}.`}{' '}
            Попытки, ждущие проверки, не учитываются.
          </Muted>
          {!sampleSize ? (
            <Muted>Завершённых попыток пока нет.</Muted>
          ) : (
            <>
              <h2>Распределение результатов</h2>
              <Histogram bars={histogram} total={sampleSize} />
              <h2>Вопросы</h2>
              {items.map((item, i) => (
                <ItemCard key={item.questionId} item={item} n={i + 1} />
              ))}
            </>
          )}
        </>
      )}
    </RecordPage>
  );
}

function Histogram({ bars, total }: { bars: HistogramBar[]; total: number }) {
  const max = Math.max(1, ...bars.map((b) => b.count));
  return (
    <Bars role="table" aria-label="Распределение результатов">
      {bars.map((b) => (
        <BarRow key={b.from} role="row">
          <span role="rowheader">
            {b.from}–{b.to}%
          </span>
          <Track role="cell" aria-label={`${b.count} из ${total}`}>
            <Fill style={{ width: `${(b.count / max) * 100}%` }} />
          </Track>
          <span role="cell">{b.count}</span>
        </BarRow>
      ))}
    </Bars>
  );
}

function ItemCard({ item, n }: { item: ItemStats; n: number }) {
  return (
    <Card aria-label={`Вопрос ${n}`} $flagged={item.flags.length > 0}>
      <strong>
        {n}. {item.question}
      </strong>
      <Muted>
        {QUESTION_TYPE_LABELS[item.type]} · попыток: {item.attempts} · трудность:{' '}
        {item.facility === null ? 'не оценивается' : `${percent.format(item.facility)}% баллов`} · различающая сила:{' '}
        {item.discrimination === null ? '—' : correlation.format(item.discrimination)} · медиана времени:{' '}
        {item.medianTime === null ? '—' : seconds.format(item.medianTime)}
      </Muted>
      {item.options.length > 0 && (
        <BulletList aria-label="Выбор вариантов">
          {item.options.map((o) => (
            <li key={o.label}>
              {o.label}
              {o.correct ? ' (верный)' : ''}: {o.count}
            </li>
          ))}
        </BulletList>
      )}
      {item.flags.length > 0 && (
        <BulletList aria-label="Замечания">
          {item.flags.map((flag) => (
            <li key={flag}>
              <Flag>{ITEM_FLAG_TEXT[flag].label}</Flag> — {ITEM_FLAG_TEXT[flag].explanation}
            </li>
          ))}
        </BulletList>
      )}
    </Card>
  );
}

const Bars = styled(Stack).attrs({ $gap: 4 })`
  max-width: 640px;
`;
const BarRow = styled.div`
  display: grid;
  grid-template-columns: 80px 1fr 40px;
  gap: 8px;
  align-items: center;
`;
const Track = styled.span`
  display: block;
  height: 14px;
  background: ${({ theme }) => theme.colors.border};
  border-radius: 4px;
  overflow: hidden;
`;
const Fill = styled.span`
  display: block;
  height: 100%;
  background: ${({ theme }) => theme.colors.primary};
`;
const Card = styled.section<{ $flagged: boolean }>`
  display: grid;
  gap: 6px;
  padding: 12px;
  margin-bottom: 10px;
  border: 1px solid ${({ theme, $flagged }) => ($flagged ? theme.colors.danger : theme.colors.border)};
  border-radius: 8px;
  p {
    margin: 0;
  }
`;
const Flag = styled.strong`
  color: ${({ theme }) => theme.colors.danger};
`;
