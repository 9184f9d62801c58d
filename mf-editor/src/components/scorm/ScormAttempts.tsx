import { useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { ANALYSIS_SAMPLE_LIMIT, type LessonOutline } from '@portal/contracts';
import {
  Button,
  DataTable,
  Dialog,
  durationLabel,
  LoadError,
  Muted,
  Pager,
  SCORM_ATTEMPT_COLUMNS,
  ScormAttemptCells,
  TableHead,
  TableScroll,
} from '@portal/ui';
import { useBackend, type ScormBackend } from '../../backend/backend';

export const SCORM_ATTEMPTS_MSG = {
  title: 'Попытки SCORM-уроков',
  loading: 'Загрузка попыток...',
  failed: 'Не удалось загрузить попытки SCORM-уроков',
  analysis: (lesson: string) => `Анализ вопросов: ${lesson}`,
  analysisLoading: 'Загрузка анализа...',
  analysisFailed: 'Не удалось загрузить анализ вопросов',
  analysisNone: 'Пакет этого урока не сообщал о вопросах',
  analysisCount: (shown: number, total: number) =>
    shown < total ? `По последним ${shown} попыткам из ${total}` : `Попыток: ${total}`,
  analysisColumns: ['Вопрос', 'Тип', 'Ответили', 'Верно', 'Доля верных', 'Среднее время ответа'],
} as const;

/**
 * The learners' attempts at the course's SCORM lessons, for its authors: on the course's overview,
 * where its structure is. Nothing is shown while no learner has opened one.
 */
export function ScormAttempts({
  courseId,
  lessons,
}: {
  courseId: string;
  lessons: Pick<LessonOutline, 'id' | 'title' | 'hasScorm'>[];
}) {
  const backend = useBackend();
  return backend.scorm ? (
    <AttemptsTable courseId={courseId} lessons={lessons.filter((l) => l.hasScorm)} scorm={backend.scorm} />
  ) : null;
}

function AttemptsTable({
  courseId,
  lessons,
  scorm,
}: {
  courseId: string;
  lessons: Pick<LessonOutline, 'id' | 'title'>[];
  scorm: ScormBackend;
}) {
  const [page, setPage] = useState(1);
  const [analysed, setAnalysed] = useState<Pick<LessonOutline, 'id' | 'title'> | null>(null);
  const attempts = useQuery({
    queryKey: ['editor', 'scorm-attempts', courseId, page],
    queryFn: () => scorm.attempts(courseId, page),
  });
  if (attempts.isPending) return <Muted role="status">{SCORM_ATTEMPTS_MSG.loading}</Muted>;
  if (attempts.isError)
    return <LoadError title={SCORM_ATTEMPTS_MSG.failed} error={attempts.error} onRetry={() => void attempts.refetch()} />;
  if (attempts.data.total === 0 && page === 1) return null;
  return (
    <Section aria-label={SCORM_ATTEMPTS_MSG.title}>
      <h2>{SCORM_ATTEMPTS_MSG.title}</h2>
      <TableScroll aria-label={SCORM_ATTEMPTS_MSG.title}>
        <DataTable>
          <TableHead columns={SCORM_ATTEMPT_COLUMNS} />
          <tbody>
            {attempts.data.data.map((a) => (
              <tr key={a.id}>
                <ScormAttemptCells attempt={a} />
              </tr>
            ))}
          </tbody>
        </DataTable>
      </TableScroll>
      <Pager of={attempts.data} onPage={setPage} />
      {lessons.length > 0 && (
        <Lessons>
          {lessons.map((lesson) => (
            <Button key={lesson.id} type="button" $variant="outline" $size="sm" onClick={() => setAnalysed(lesson)}>
              {SCORM_ATTEMPTS_MSG.analysis(lesson.title)}
            </Button>
          ))}
        </Lessons>
      )}
      {analysed && <AnalysisDialog courseId={courseId} lesson={analysed} scorm={scorm} onClose={() => setAnalysed(null)} />}
    </Section>
  );
}

/** The questions a lesson's package reported (interactions), by id: how often answered, how often right, how fast. */
function AnalysisDialog({
  courseId,
  lesson,
  scorm,
  onClose,
}: {
  courseId: string;
  lesson: Pick<LessonOutline, 'id' | 'title'>;
  scorm: ScormBackend;
  onClose: () => void;
}) {
  const analysis = useQuery({
    queryKey: ['editor', 'scorm-analysis', courseId, lesson.id],
    queryFn: () => scorm.analysis(courseId, lesson.id),
  });
  return (
    <Dialog title={SCORM_ATTEMPTS_MSG.analysis(lesson.title)} onClose={onClose} wide>
      {analysis.isPending ? (
        <Muted role="status">{SCORM_ATTEMPTS_MSG.analysisLoading}</Muted>
      ) : analysis.isError ? (
        <LoadError title={SCORM_ATTEMPTS_MSG.analysisFailed} error={analysis.error} onRetry={() => void analysis.refetch()} />
      ) : analysis.data.interactions.length === 0 ? (
        <Muted>{SCORM_ATTEMPTS_MSG.analysisNone}</Muted>
      ) : (
        <>
          <Muted>
            {SCORM_ATTEMPTS_MSG.analysisCount(Math.min(analysis.data.attempts, ANALYSIS_SAMPLE_LIMIT), analysis.data.attempts)}
          </Muted>
          <TableScroll aria-label={SCORM_ATTEMPTS_MSG.analysis(lesson.title)}>
            <DataTable>
              <TableHead columns={SCORM_ATTEMPTS_MSG.analysisColumns} />
              <tbody>
                {analysis.data.interactions.map((q) => (
                  <tr key={q.id}>
                    <td>{q.id}</td>
                    <td>{q.type}</td>
                    <td>{q.answered}</td>
                    <td>{q.correct}</td>
                    <td>{q.correctPercentage}%</td>
                    <td>{q.averageLatency === null ? '—' : durationLabel(q.averageLatency)}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          </TableScroll>
        </>
      )}
    </Dialog>
  );
}

const Lessons = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;
const Section = styled.section`
  display: grid;
  gap: 8px;
  min-width: 0;
`;
