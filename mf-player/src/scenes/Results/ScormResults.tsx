import { useState } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ScormAttemptSummary } from '@portal/contracts';
import {
  Button,
  DataTable,
  Dialog,
  durationLabel,
  ExportButtons,
  LoadError,
  Muted,
  Pager,
  SCORM_ATTEMPT_COLUMNS,
  ScormAttemptCells,
  TableHead,
  TableScroll,
} from '@portal/ui';
import { fetchScormResults, downloadScormResults } from '../../api/scorm';

export const SCORM_RESULTS_MSG = {
  title: 'Результаты SCORM-уроков',
  loading: 'Загрузка результатов SCORM-уроков...',
  failed: 'Не удалось загрузить результаты SCORM-уроков',
  exportFailed: 'Не удалось выгрузить результаты SCORM-уроков. Повторите попытку',
  answers: 'Ответы',
  noAnswers: 'Пакет не сообщал о вопросах',
  answersTitle: (a: Pick<ScormAttemptSummary, 'userName' | 'lessonTitle' | 'number'>) =>
    `Ответы: ${a.userName}, «${a.lessonTitle}», попытка №${a.number}`,
  answerColumns: ['Вопрос', 'Тип', 'Ответ', 'Верный ответ', 'Результат', 'Время ответа'],
} as const;

const RESULT_LABELS: Record<string, string> = {
  correct: 'верно',
  incorrect: 'неверно',
  wrong: 'неверно',
  unanticipated: 'непредусмотренный ответ',
  neutral: 'нейтрально',
};

/**
 * The SCORM lessons' attempts on /results, below the quizzes': a learner's own, a curator's courses',
 * everyone's for ADMIN (the server decides), narrowed to the page's course filter, with the score the
 * package reported, its time, and the answers it reported (interactions) a row at a time.
 */
export function ScormResults({ courseId }: { courseId: string }) {
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<ScormAttemptSummary | null>(null);
  const [forCourse, setForCourse] = useState(courseId);
  if (forCourse !== courseId) {
    setForCourse(courseId);
    setPage(1);
  }
  const attempts = useQuery({
    queryKey: ['player', 'scorm-results', courseId, page],
    queryFn: ({ signal }) => fetchScormResults({ courseId, page }, signal),
    placeholderData: keepPreviousData,
  });
  if (attempts.isPending) return <Muted role="status">{SCORM_RESULTS_MSG.loading}</Muted>;
  if (attempts.isError && !attempts.data)
    return <LoadError title={SCORM_RESULTS_MSG.failed} error={attempts.error} onRetry={() => void attempts.refetch()} />;
  const data = attempts.data;
  // Nobody has played a SCORM lesson here: the quizzes' results are the whole page.
  if (!data || (data.total === 0 && page === 1)) return null;
  return (
    <Section aria-label={SCORM_RESULTS_MSG.title}>
      <Heading>
        <h2>{SCORM_RESULTS_MSG.title}</h2>
        <ExportButtons
          onExport={(format) => downloadScormResults(format, courseId)}
          failedText={SCORM_RESULTS_MSG.exportFailed}
        />
      </Heading>
      <TableScroll aria-label={SCORM_RESULTS_MSG.title}>
        <DataTable aria-busy={attempts.isFetching}>
          <TableHead columns={[...SCORM_ATTEMPT_COLUMNS, SCORM_RESULTS_MSG.answers]} />
          <tbody>
            {data.data.map((a) => (
              <tr key={a.id}>
                <ScormAttemptCells attempt={a} />
                <td>
                  {a.interactions.length ? (
                    <Button
                      type="button"
                      $variant="outline"
                      $size="sm"
                      onClick={() => setShown(a)}
                      aria-label={SCORM_RESULTS_MSG.answersTitle(a)}
                    >
                      {SCORM_RESULTS_MSG.answers} ({a.interactions.length})
                    </Button>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      </TableScroll>
      <Pager of={data} onPage={setPage} />
      {shown && <AnswersDialog attempt={shown} onClose={() => setShown(null)} />}
    </Section>
  );
}

/** The interactions a package reported for one attempt: what the learner answered and how it was judged. */
function AnswersDialog({ attempt, onClose }: { attempt: ScormAttemptSummary; onClose: () => void }) {
  return (
    <Dialog title={SCORM_RESULTS_MSG.answersTitle(attempt)} onClose={onClose} wide>
      {attempt.interactions.length === 0 ? (
        <Muted>{SCORM_RESULTS_MSG.noAnswers}</Muted>
      ) : (
        <TableScroll aria-label={SCORM_RESULTS_MSG.answers}>
          <DataTable>
            <TableHead columns={SCORM_RESULTS_MSG.answerColumns} />
            <tbody>
              {attempt.interactions.map((i, n) => (
                <tr key={`${i.id}-${n}`}>
                  <td>{i.id}</td>
                  <td>{i.type}</td>
                  <td>{i.response || '—'}</td>
                  <td>{i.correctResponses.join('; ') || '—'}</td>
                  <td>{RESULT_LABELS[i.result] ?? (i.result || '—')}</td>
                  <td>{i.latency === null ? '—' : durationLabel(i.latency)}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        </TableScroll>
      )}
    </Dialog>
  );
}

const Section = styled.section`
  display: grid;
  gap: 8px;
  margin-top: 24px;
  min-width: 0;
`;
const Heading = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  h2 {
    margin: 0;
    font-size: 20px;
  }
`;
