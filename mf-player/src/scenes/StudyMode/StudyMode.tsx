import { lazy, useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import {
  PROGRESS_MSG,
  SCORM_MSG,
  computeCourseProgress,
  contentBlocksOf,
  isStaff,
  type CourseOutline as Outline,
  type CourseProgress,
  type LessonOutline,
} from '@portal/contracts';
import { Button, LazyPart, LoadError, Loading, Muted, PartFailed, Spread, Stack } from '@portal/ui';
import { ApiError, assignmentKeys, errorMessage, isMissing, navigate, paths, useAuth } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import {
  completeLesson,
  fetchCourseProgress,
  fetchLesson,
  fetchOutline,
  lessonKey,
  outlineKey,
  progressKey,
} from '../../api/player';
import { LESSON_STATE_LABELS, StatusBadge, lessonStateOf, type LessonState } from '../../components/Badges';
import { BlockView } from '../../components/BlockView';
import { CourseOutline } from '../../components/CourseOutline';
import { StudyAssignment } from '../../components/StudyAssignment';

// The quiz player comes with the first lesson that holds a quiz: a page of text opens without it.
const QuizBlockCard = lazy(() => import('../../components/QuizBlockCard').then((m) => ({ default: m.QuizBlockCard })));
// So is the SCORM player (scorm-again is loaded by it only when a SCO starts).
const ScormLesson = lazy(() => import('../../components/scorm/ScormLesson').then((m) => ({ default: m.ScormLesson })));

const notRetriedOn4xx = (count: number, err: Error) =>
  !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1;

/** The lesson chosen is kept in the address (?lesson=), so a reload shows it again. */
const lessonInAddress = () => new URLSearchParams(window.location.search).get('lesson');

const LOADING_LESSON = 'Загрузка урока...';
const SCORM_PLAYER_LOADING = 'Загрузка учебного материала...';
const LESSON_LOAD_FAILED = 'Не удалось загрузить урок';

/** One lesson's blocks: read when it is opened, or ahead of time. Kept while the outline names that version. */
const lessonQuery = (lesson: Pick<LessonOutline, 'id' | 'updatedAt'>) => ({
  queryKey: lessonKey(lesson.id, lesson.updatedAt),
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchLesson(lesson.id, signal),
  staleTime: Infinity,
  retry: notRetriedOn4xx,
});

export const PREVIEW_MSG = {
  title: 'Просмотр как слушатель',
  note: 'Так курс видят слушатели. Ничего не записывается: ни прохождение уроков, ни попытки квизов.',
  backToEditor: 'Вернуться в редактор',
  completedHere: 'Отмечен только в этом просмотре',
} as const;

/**
 * What a learner sees of the structure: hidden modules and lessons do not exist for them (the
 * content service's rule); authors get them in the outline, so the preview leaves them out.
 */
const asLearnerSees = (outline: Outline): Outline => ({
  ...outline,
  modules: outline.modules
    .filter((m) => m.status !== 'hidden')
    .map((m) => ({ ...m, lessons: m.lessons.filter((l) => l.status !== 'hidden') })),
});

/**
 * /student/{courseId}: study mode. ADMIN and CURATOR open it as «Просмотр как
 * слушатель»: the same screens, and nothing written (no progress read or completion sent, quizzes
 * played in the player's preview mode); the progress service refuses their writes anyway.
 */
export function StudyMode({ courseId }: { courseId: string }) {
  const queryClient = useQueryClient();
  const preview = isStaff(useAuth().user?.role);
  const [selectedId, setSelectedId] = useState<string | null>(lessonInAddress);
  // Lessons opened from the outline: each brings the lesson's heading into view and focus.
  const [opened, setOpened] = useState(0);
  // Lessons "completed" in a preview: kept in this page only.
  const [previewDone, setPreviewDone] = useState<ReadonlySet<string>>(() => new Set());
  // The structure only: each lesson's blocks are read when it is opened (and the next one ahead).
  const course = useQuery({
    queryKey: outlineKey(courseId),
    queryFn: ({ signal }) => fetchOutline(courseId, signal),
    retry: notRetriedOn4xx,
    select: preview ? asLearnerSees : undefined,
  });
  const progress = useQuery({
    queryKey: progressKey(courseId),
    queryFn: ({ signal }) => fetchCourseProgress(courseId, signal),
    retry: notRetriedOn4xx,
    enabled: course.isSuccess && !preview,
  });

  const completed = useMemo(
    () => (preview ? previewDone : new Set(progress.data?.completedLessonIds ?? [])),
    [preview, previewDone, progress.data],
  );
  const back = () => navigate(preview ? paths.editor(courseId) : paths.courses());
  // The outline's answer comes through the query cache's store, whose updates React renders in one
  // task; the page it makes (the outline, the lesson) is rendered from a deferred copy instead, which
  // React renders in slices, yielding to the browser between them.
  const outline = useDeferredValue(course.data);

  /**
   * Marks a lesson complete at once and rolls back if the server refuses (docs/decisions/069); the
   * failure itself is only logged, as the spec says.
   */
  const complete = useMutation({
    mutationFn: (lessonId: string) => completeLesson(courseId, lessonId),
    onMutate: async (lessonId) => {
      await queryClient.cancelQueries({ queryKey: progressKey(courseId) });
      const before = queryClient.getQueryData<CourseProgress>(progressKey(courseId));
      const structure = queryClient.getQueryData<Outline>(outlineKey(courseId));
      if (structure) {
        queryClient.setQueryData<CourseProgress>(
          progressKey(courseId),
          computeCourseProgress(structure, [...(before?.completedLessonIds ?? []), lessonId], before?.completedAt ?? null, {
            awaitingReview: before?.awaitingReviewLessonIds,
            attempted: before?.attemptedLessonIds,
          }),
        );
      }
      return { before };
    },
    onError: (err, _lessonId, context) => {
      queryClient.setQueryData(progressKey(courseId), context?.before);
      console.error(`${PROGRESS_MSG.completeFailed}:`, errorMessage(err));
    },
    // After each completion the module and course figures come from the server again.
    onSuccess: (result) => {
      queryClient.setQueryData(progressKey(courseId), result.progress);
      // The assignment's status (не начат → в процессе → завершён) follows the recorded completion.
      void readAgain(queryClient, assignmentKeys.all);
    },
  });

  const select = useCallback(
    (lessonId: string) => {
      setSelectedId(lessonId);
      setOpened((n) => n + 1);
      navigate(`${paths.student(courseId)}?lesson=${encodeURIComponent(lessonId)}`, { replace: true });
    },
    [courseId],
  );
  useEffect(() => {
    if (!opened) return;
    // A phone shows the outline above the lesson, which starts below the screen: without this, a tap
    // on a lesson seemed to do nothing. Focus goes to the heading too, so a screen reader reads it.
    const heading = document.getElementById('lesson-title');
    if (!heading) return;
    heading.setAttribute('tabindex', '-1');
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
  }, [opened]);

  if (course.isPending || (course.isSuccess && !outline)) {
    return (
      <Centered>
        <Loading label={PROGRESS_MSG.loadingCourse} />
      </Centered>
    );
  }
  if (course.isError) {
    return (
      <Centered>
        {isMissing(course.error) ? (
          <h1>{PROGRESS_MSG.courseNotFound}</h1>
        ) : (
          <LoadError title={PROGRESS_MSG.courseLoadFailed} error={course.error} onRetry={() => void course.refetch()} />
        )}
        <Button type="button" $variant="outline" onClick={back}>
          ← {PROGRESS_MSG.back}
        </Button>
      </Centered>
    );
  }

  const shown = outline ?? course.data;
  const lessons = shown.modules.flatMap((m) => m.lessons);
  const lesson = lessons.find((l) => l.id === selectedId) ?? null;
  // The lesson a learner most likely opens next: the one after this, or the first one.
  const ahead = lesson ? (lessons[lessons.indexOf(lesson) + 1] ?? null) : (lessons[0] ?? null);

  const onComplete = (lessonId: string) => {
    if (preview) setPreviewDone((done) => new Set([...done, lessonId]));
    else complete.mutate(lessonId);
  };
  // A SCO's completion is recorded by the progress service as its commit is stored: the page only
  // reads the course's figures and the assignment again.
  const onScormCompleted = (lessonId: string) => {
    if (preview) setPreviewDone((done) => new Set([...done, lessonId]));
    else void readAgain(queryClient, progressKey(courseId), assignmentKeys.all);
  };

  return (
    <Layout data-mf="mf_player">
      <CourseOutline
        course={shown}
        progress={progress.data}
        completed={completed}
        selectedLessonId={lesson?.id ?? null}
        showStatus={preview}
        onSelect={select}
        onBack={back}
      />
      <Main>
        {preview && (
          <PreviewBanner role="note" aria-label={PREVIEW_MSG.title}>
            <div>
              <strong>{PREVIEW_MSG.title}</strong>
              <span>{PREVIEW_MSG.note}</span>
            </div>
            <Button type="button" $variant="outline" $size="sm" onClick={back}>
              {PREVIEW_MSG.backToEditor}
            </Button>
          </PreviewBanner>
        )}
        {!preview && <StudyAssignment courseId={courseId} lessonsDone={!!progress.data?.isCompleted} />}
        <ReadAhead lesson={ahead} />
        {lesson ? (
          <LessonView
            key={lesson.id}
            lesson={lesson}
            courseId={courseId}
            preview={preview}
            completed={completed.has(lesson.id)}
            state={lessonStateOf(lesson.id, completed, progress.data)}
            completing={complete.isPending && complete.variables === lesson.id}
            onComplete={() => onComplete(lesson.id)}
            onScormCompleted={() => onScormCompleted(lesson.id)}
          />
        ) : (
          <Placeholder>
            <Muted>{PROGRESS_MSG.chooseLesson}</Muted>
          </Placeholder>
        )}
      </Main>
    </Layout>
  );
}

/** Reads a lesson ahead of time, so that opening it shows its blocks at once. */
function ReadAhead({ lesson }: { lesson: LessonOutline | null }) {
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

function LessonView({ lesson, courseId, preview, completed, state, completing, onComplete, onScormCompleted }: LessonViewProps) {
  const record = useQuery(lessonQuery(lesson));
  // The lesson's blocks are rendered from a deferred copy of its answer, in slices (as the outline is).
  const data = useDeferredValue(record.data);
  const blocks = useMemo(() => (data ? contentBlocksOf(data) : []), [data]);
  // A SCO completes its lesson itself: no «Завершить урок» beside it.
  const scorm = lesson.hasScorm || blocks.some((b) => b.type === 'scorm');
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
              renderQuiz={(quizId) => (
                <LazyPart fallback={<Muted role="status">{PROGRESS_MSG.loadingQuiz}</Muted>} failed={<PartFailed what="тест" />}>
                  <QuizBlockCard
                    quizId={quizId}
                    courseId={courseId}
                    lessonId={lesson.id}
                    preview={preview}
                    onPassed={() => !completed && onComplete()}
                  />
                </LazyPart>
              )}
              renderScorm={(content) => (
                <LazyPart
                  fallback={<Muted role="status">{SCORM_PLAYER_LOADING}</Muted>}
                  failed={<PartFailed what="SCORM-пакет" />}
                >
                  <ScormLesson
                    courseId={courseId}
                    lessonId={lesson.id}
                    content={content}
                    preview={preview}
                    onCompleted={onScormCompleted}
                  />
                </LazyPart>
              )}
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
    </Article>
  );
}

const Layout = styled.div`
  display: grid;
  grid-template-columns: minmax(260px, 320px) minmax(0, 1fr);
  min-height: calc(100vh - 64px);
  @media (max-width: 800px) {
    grid-template-columns: 1fr;
  }
`;
const Main = styled.main`
  padding: 32px clamp(16px, 4vw, 48px);
  min-width: 0;
`;
const Centered = styled.main`
  display: grid;
  justify-items: center;
  gap: 16px;
  padding: 64px 24px;
  text-align: center;
`;
const Placeholder = styled.div`
  display: grid;
  place-items: center;
  gap: 4px;
  min-height: 240px;
  text-align: center;
  border: 2px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  h3 {
    margin: 0;
  }
  p {
    margin: 0;
  }
`;
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
const PreviewBanner = styled(Spread).attrs({ as: 'aside' })`
  max-width: 860px;
  margin-bottom: 20px;
  padding: 12px 16px;
  border: 1px solid ${({ theme }) => theme.colors.primary};
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  > div {
    display: grid;
    gap: 2px;
    min-width: 0;
  }
  span {
    font-size: 14px;
    color: ${({ theme }) => theme.colors.muted};
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
