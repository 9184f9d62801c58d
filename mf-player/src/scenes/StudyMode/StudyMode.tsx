import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import styled from 'styled-components';
import {
  PROGRESS_MSG,
  computeCourseProgress,
  isStaff,
  type CourseOutline as Outline,
  type CourseProgress,
} from '@portal/contracts';
import { Button, ErrorState, Loading, Muted, NotFoundState, Spread } from '@portal/ui';
import { errorMessage, isMissing, navigate, paths, retriedUnlessRefused, useAuth } from '@portal/web-core';
import { assignmentKeys } from '@portal/web-core/assignments';
import { readAgain } from '@portal/web-core/query';
import { completeLesson, fetchCourseProgress, fetchOutline, outlineKey, progressKey } from '../../api/player';
import { lessonStateOf } from '../../components/Badges';
import { CourseOutline } from '../../components/CourseOutline';
import { StudyAssignment } from '../../components/StudyAssignment';
import { LessonView, ReadAhead } from './LessonView';
import { PREVIEW_MSG, Placeholder } from './parts';

/** The lesson chosen is kept in the address (?lesson=), so a reload shows it again. */
const lessonInAddress = () => new URLSearchParams(window.location.search).get('lesson');

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
    retry: retriedUnlessRefused,
    select: preview ? asLearnerSees : undefined,
  });
  const progress = useQuery({
    queryKey: progressKey(courseId),
    queryFn: ({ signal }) => fetchCourseProgress(courseId, signal),
    retry: retriedUnlessRefused,
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
    const backButton = (
      <Button type="button" $variant="outline" onClick={back}>
        ← {PROGRESS_MSG.back}
      </Button>
    );
    return isMissing(course.error) ? (
      <NotFoundState title={PROGRESS_MSG.courseNotFound} action={backButton} />
    ) : (
      <ErrorState
        title={PROGRESS_MSG.courseLoadFailed}
        error={course.error}
        onRetry={() => void course.refetch()}
        action={backButton}
      />
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
