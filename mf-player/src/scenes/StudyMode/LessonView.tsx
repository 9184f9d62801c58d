import { useDeferredValue, useEffect, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import { PROGRESS_MSG, SCORM_MSG, contentBlocksOf, type LessonOutline } from '@portal/contracts';
import { Button, LazyPart, LoadError, Loading, Muted, PartFailed, Stack } from '@portal/ui';
import { retriedUnlessRefused } from '@portal/web-core';
import { fetchLesson, lessonKey } from '../../api/player';
import { LESSON_STATE_LABELS, StatusBadge, type LessonState } from '../../components/Badges';
import { useLoadedPart } from '../../hooks/useLoadedPart';
import { Placeholder, PREVIEW_MSG } from './parts';

// The blocks' views, with the rich-text sanitiser, come with the first lesson opened: the course's
// outline opens without them. They are asked for as the lesson's blocks are, not after them.
const loadBlockView = () => import('../../components/BlockView');

// The quiz player comes with the first lesson that holds a quiz, asked for beside the blocks' views
// when the outline says so: a page of text opens without it.
const loadQuizBlockCard = () => import('../../components/QuizBlockCard');
// So is the SCORM player (scorm-again is loaded by it only when a SCO starts), asked for beside the
// blocks' views when the outline says the lesson plays a package.
const loadScormLesson = () => import('../../components/scorm/ScormLesson');

const LOADING_LESSON = 'Загрузка урока...';
const SCORM_PLAYER_LOADING = 'Загрузка учебного материала...';
const LESSON_LOAD_FAILED = 'Не удалось загрузить урок';

/** One lesson's blocks: read when it is opened, or ahead of time. Kept while the outline names that version. */
const lessonQuery = (lesson: Pick<LessonOutline, 'id' | 'updatedAt'>) => ({
  queryKey: lessonKey(lesson.id, lesson.updatedAt),
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchLesson(lesson.id, signal),
  staleTime: Infinity,
  retry: retriedUnlessRefused,
});

/** Reads a lesson ahead of time, so that opening it shows its blocks at once. */
export function ReadAhead({ lesson }: { lesson: LessonOutline | null }) {
  const queryClient = useQueryClient();
  const id = lesson?.id;
  const version = lesson?.updatedAt;
  useEffect(() => {
    if (id && version) void queryClient.prefetchQuery(lessonQuery({ id, updatedAt: version }));
  }, [queryClient, id, version]);
  return null;
}

interface LessonViewProps {
  lesson: LessonOutline;
  courseId: string;
  /** An author's preview: status badges, quizzes in preview mode, nothing written. */
  preview: boolean;
  completed: boolean;
  /** The learner's state in it: «ожидает проверки» and «в процессе» come from its quiz's attempts. */
  state: LessonState;
  completing: boolean;
  onComplete: () => void;
  onScormCompleted: () => void;
}

export function LessonView({
  lesson,
  courseId,
  preview,
  completed,
  state,
  completing,
  onComplete,
  onScormCompleted,
}: LessonViewProps) {
  const record = useQuery(lessonQuery(lesson));
  // The lesson's blocks are rendered from a deferred copy of its answer, in slices (as the outline is).
  const data = useDeferredValue(record.data);
  const blocks = useMemo(() => (data ? contentBlocksOf(data) : []), [data]);
  // A SCO completes its lesson itself: no «Завершить урок» beside it.
  const scorm = lesson.hasScorm || blocks.some((b) => b.type === 'scorm');
  // Loaded without suspending: each shows as soon as its files are in (useLoadedPart).
  const views = useLoadedPart(loadBlockView);
  const player = useLoadedPart(loadScormLesson, scorm);
  const quizPart = useLoadedPart(loadQuizBlockCard, lesson.hasQuiz || blocks.some((b) => b.type === 'quiz'));
  const BlockView = views.part?.BlockView;
  const ScormLesson = player.part?.ScormLesson;
  const QuizBlockCard = quizPart.part?.QuizBlockCard;
  const header = (
    <LessonHeader>
      <h2 id="lesson-title">{lesson.title}</h2>
      {preview && <StatusBadge status={lesson.status} />}
      {!preview && !completed && (
        <Muted as="span" role="status">
          {LESSON_STATE_LABELS[state]}
        </Muted>
      )}
      {completed && (
        <Done role="status">
          ✓ {PROGRESS_MSG.lessonCompleted}
          {preview && <Muted as="small"> · {PREVIEW_MSG.completedHere}</Muted>}
        </Done>
      )}
    </LessonHeader>
  );
  if (!data) {
    return (
      <Article aria-labelledby="lesson-title" aria-busy={!record.isError}>
        {header}
        {record.isError ? (
          <LoadError title={LESSON_LOAD_FAILED} error={record.error} onRetry={() => void record.refetch()} />
        ) : (
          <Loading label={LOADING_LESSON} />
        )}
      </Article>
    );
  }
  return (
    <Article aria-labelledby="lesson-title">
      {header}
      {/* Until the blocks' views have come the lesson reads as loading, its completion below them too. */}
      {views.failed ? (
        <PartFailed what="урок" />
      ) : !BlockView ? (
        <Loading label={LOADING_LESSON} />
      ) : (
        // Nothing in it suspends now; it still stands between a block that fails to render and the page.
        <LazyPart fallback={<Loading label={LOADING_LESSON} />} failed={<PartFailed what="урок" />}>
          {data.description && <Muted>{data.description}</Muted>}
          {blocks.length === 0 ? (
            <Placeholder>
              <h3>{PROGRESS_MSG.lessonEmpty}</h3>
              <Muted>{PROGRESS_MSG.lessonEmptyHint}</Muted>
            </Placeholder>
          ) : (
            <Stack $gap={20}>
              {blocks.map((block) => (
                <BlockView
                  key={block.id}
                  block={block}
                  renderQuiz={(quizId) =>
                    quizPart.failed ? (
                      <PartFailed what="тест" />
                    ) : !QuizBlockCard ? (
                      <Muted role="status">{PROGRESS_MSG.loadingQuiz}</Muted>
                    ) : (
                      <QuizBlockCard
                        quizId={quizId}
                        courseId={courseId}
                        lessonId={lesson.id}
                        preview={preview}
                        onPassed={() => !completed && onComplete()}
                      />
                    )
                  }
                  renderScorm={(content) =>
                    player.failed ? (
                      <PartFailed what="SCORM-пакет" />
                    ) : !ScormLesson ? (
                      <Muted role="status">{SCORM_PLAYER_LOADING}</Muted>
                    ) : (
                      <ScormLesson
                        courseId={courseId}
                        lessonId={lesson.id}
                        content={content}
                        preview={preview}
                        onCompleted={onScormCompleted}
                      />
                    )
                  }
                />
              ))}
            </Stack>
          )}
          {/* One rule of completion (the server's): a lesson with a quiz is complete when its quiz is passed, not by the button. */}
          {blocks.length > 0 && !completed && !lesson.hasQuiz && !scorm && (
            <Finish>
              <Button type="button" $size="lg" onClick={onComplete} disabled={completing}>
                {PROGRESS_MSG.completeLesson}
              </Button>
            </Finish>
          )}
          {blocks.length > 0 && !completed && scorm && (
            <Finish>
              <Muted>{SCORM_MSG.lessonIsScorm}</Muted>
            </Finish>
          )}
          {blocks.length > 0 && !completed && lesson.hasQuiz && !scorm && (
            <Finish>
              <Muted>{state === 'review' ? PROGRESS_MSG.lessonReviewHint : PROGRESS_MSG.lessonCompletesWithQuiz}</Muted>
            </Finish>
          )}
        </LazyPart>
      )}
    </Article>
  );
}

const Article = styled(Stack).attrs({ as: 'article', $gap: 20 })`
  max-width: 860px;
`;

const LessonHeader = styled.header`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 12px;
  h2 {
    margin: 0;
    font-size: 26px;
    overflow-wrap: anywhere;
  }
`;

const Done = styled.span`
  color: ${({ theme }) => theme.colors.success};
  font-weight: 600;
`;

const Finish = styled.div`
  display: flex;
  justify-content: flex-end;
`;
