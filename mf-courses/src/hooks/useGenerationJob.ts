/** The «Создать с ИИ» generation job as a state machine: start, poll, cancel or discard, then open the draft. */
import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { GenerateCourseRequest, GenerationJob } from '@portal/contracts';
import { refusalOf, useCurrentState } from '@portal/ui';
import { ApiError, navigate, paths } from '@portal/web-core';
import { readAgain, useGenerationJobPoll } from '@portal/web-core/query';
import { COURSES_KEY } from '../api/courses';
import { cancelGeneration, fetchCourse, fetchGenerationJob, generatedCourseKey, startCourseGeneration } from '../api/generation';
import { draftReadyText, failureOf, phaseOfJob, summarizeDraft, type BuilderPhase } from '../model/courseBuilder';

/** Long enough to read the summary, short enough not to wait for. */
export const OPEN_EDITOR_AFTER_MS = 1500;

/** A job nobody will look at again is stopped; whether that worked changes nothing for the author. */
const cancelQuietly = (job: GenerationJob) => void cancelGeneration(job.id).catch(() => undefined);

/**
 * One generation job from the form to the editor. The job is polled while it runs (the contract's
 * period: EventSource cannot send the bearer token, so the client asks); a succeeded job's course is
 * read for its summary and the editor opens by itself a moment later. A job started by a dialog that
 * has gone meanwhile is cancelled.
 */
export function useGenerationJob() {
  const queryClient = useQueryClient();
  // Handlers of calls in flight read the phase of now, not of the render that started them.
  const [phase, setPhase, phaseRef] = useCurrentState<BuilderPhase>({ step: 'form', error: null });
  const alive = useRef(true);
  const leftForEditor = useRef(false);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const runningId = phase.step === 'running' ? phase.job.id : null;
  const poll = useGenerationJobPoll(runningId, fetchGenerationJob);

  useEffect(() => {
    const current = phaseRef.current;
    if (!poll.data || current.step !== 'running' || poll.data.id !== current.job.id) return;
    const next = phaseOfJob(poll.data);
    if (next.step === 'succeeded') void readAgain(queryClient, COURSES_KEY);
    setPhase(next);
    // Only a new answer moves the dialog on (the phase is read as it is now, not as a dependency).
  }, [poll.data]);

  useEffect(() => {
    if (poll.error && phaseRef.current.step === 'running') setPhase(failureOf(poll.error));
  }, [poll.error, phaseRef, setPhase]);

  const courseId = phase.step === 'succeeded' ? phase.courseId : null;
  const course = useQuery({
    queryKey: generatedCourseKey(courseId),
    queryFn: ({ signal }) => fetchCourse(courseId as string, signal),
    enabled: courseId !== null,
    staleTime: 0,
    gcTime: 0,
  });

  const openEditor = (id: string) => {
    leftForEditor.current = true;
    navigate(paths.editor(id));
  };

  // The editor opens by itself once the summary has been on screen for a moment.
  const autoOpen = phase.step === 'succeeded' && !phase.late && !course.isPending;
  useEffect(() => {
    if (!autoOpen || !courseId) return;
    const timer = setTimeout(() => openEditor(courseId), OPEN_EDITOR_AFTER_MS);
    return () => clearTimeout(timer);
  }, [autoOpen, courseId]);

  const start = async (request: GenerateCourseRequest) => {
    if (phaseRef.current.step !== 'form') return;
    setPhase({ step: 'starting' });
    try {
      const job = await startCourseGeneration(request);
      if (!alive.current) return cancelQuietly(job);
      setPhase(phaseOfJob(job));
    } catch (err) {
      if (alive.current) setPhase({ step: 'form', error: refusalOf(err) });
    }
  };

  const cancel = async (job: GenerationJob) => {
    setPhase({ step: 'cancelling', job });
    try {
      const answer = await cancelGeneration(job.id);
      if (alive.current) setPhase(phaseOfJob(answer));
    } catch (err) {
      if (!alive.current) return;
      if (!(err instanceof ApiError && err.status === 409)) return setPhase(failureOf(err));
      // It finished before the cancel arrived: say what there is now rather than pretend it was stopped.
      try {
        const latest = await fetchGenerationJob(job.id);
        if (latest.status === 'succeeded') void readAgain(queryClient, COURSES_KEY);
        if (alive.current) setPhase(phaseOfJob(latest, true));
      } catch (again) {
        if (alive.current) setPhase(failureOf(again));
      }
    }
  };

  /** The author leaves: a job still running is stopped, since nothing half-made is kept. */
  const discard = () => {
    const current = phaseRef.current;
    if (current.step === 'running') cancelQuietly(current.job);
  };

  const backToForm = () => setPhase({ step: 'form', error: null });

  return {
    phase,
    /** «Черновик готов: …» once the course is read; null before that or when reading it failed. */
    summary: course.data ? draftReadyText(summarizeDraft(course.data)) : null,
    summaryFailed: course.isError,
    /** Whether the author went on to the editor (then focus is not handed back to the opener). */
    leftForEditor: leftForEditor as { readonly current: boolean },
    start,
    cancel,
    discard,
    backToForm,
    openEditor,
  };
}
