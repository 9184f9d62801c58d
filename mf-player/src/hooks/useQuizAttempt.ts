import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  AnswerValue,
  AttemptAnswerInput,
  AttemptDetail,
  PlayerQuestion,
  QuestionResult,
  Quiz,
  QuizInfo,
  SavedAnswers,
} from '@portal/contracts';
import { ApiError, errorMessage } from '@portal/web-core';
import { saveAttemptAnswers, startAttempt, submitAttempt } from '../api/player';
import { gradePreview, previewQuizInfo, previewSession, type PreviewSession } from '../components/preview';
import { AnswerSaver, type AnswerSaveState } from './answerSaver';
import { questionClock } from './questionClock';
import { dropDraft, readDraft, writeDraft, type AnswerDraft } from './useAnswerDraft';
import { useCountdown } from './useCountdown';

/** What to play: a real attempt at a quiz where it stands, or an author's preview that reports nothing. */
export type PlayerSource =
  { kind: 'attempt'; quizId: string; courseId: string; lessonId: string } | { kind: 'preview'; quiz: Quiz };

export interface Session {
  attemptId: string | null;
  info: QuizInfo;
  questions: PlayerQuestion[];
  /** On this browser's clock (the server's deadline moved by the clocks' difference). */
  deadlineMs: number | null;
  attemptNumber: number;
}

export interface Outcome {
  status: 'passed' | 'failed';
  score: number;
  maxScore: number;
  percentage: number;
  questionsRevealed: boolean;
  questions: QuestionResult[];
  lateAnswers: number;
  /** Answers waiting for a curator: the result is provisional («на проверке»). */
  pendingReviews: number;
  /** A candidate's link hides the result: only that the answers were sent is shown. */
  hidden?: boolean;
}

export type Phase = 'starting' | 'playing' | 'submitting' | 'result' | 'failed-to-start';

export const isBlank = (a: AnswerValue | undefined) =>
  a === undefined ||
  a === null ||
  (typeof a === 'string' && !a.trim()) ||
  (Array.isArray(a) && a.every((v) => typeof v === 'string' && !v.trim())) ||
  (typeof a === 'object' && !Array.isArray(a) && !Object.keys(a).length);

/** The answers as the server takes them: every question, in the order shown, blank ones as null. */
const answerList = (
  questions: PlayerQuestion[],
  answers: Record<string, AnswerValue>,
  spent: Record<string, number>,
): AttemptAnswerInput[] =>
  questions.map((q) => ({
    questionId: q.id,
    answer: isBlank(answers[q.id]) ? null : answers[q.id],
    timeSpent: Math.round(spent[q.id] ?? 0),
  }));

/**
 * What a resumed attempt goes on with: the newer of this tab's draft and the answers the server
 * kept (saved from another device, or from this one before the tab was closed). `skew` is the
 * server's clock minus this browser's, so both times are compared on this browser's clock.
 */
export function newerAnswers(
  draft: AnswerDraft,
  saved: SavedAnswers | undefined,
  skew: number,
): AnswerDraft & { fromServer: boolean } {
  const savedAt = saved ? Date.parse(saved.savedAt) - skew : Number.NEGATIVE_INFINITY;
  if (!saved || savedAt <= (draft.updatedAt ?? 0)) return { ...draft, fromServer: false };
  const given = saved.answers.filter((a) => a.answer !== null);
  return {
    answers: Object.fromEntries(given.map((a) => [a.questionId, a.answer])),
    timeSpent: Object.fromEntries(saved.answers.map((a) => [a.questionId, a.timeSpent])),
    updatedAt: savedAt,
    fromServer: true,
  };
}

/** A refusal that another try will not mend: the attempt is not the learner's, is closed, or the answers do not fit. */
const isFinalRefusal = (err: unknown) =>
  err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;

interface AttemptCallbacks {
  /** A real attempt was graded (not called in preview). */
  onFinished?: (result: AttemptDetail) => void;
  /** A preview was passed (graded in the page; nothing is reported). */
  onPreviewPassed?: () => void;
}

/**
 * One attempt from start to result: starts (or resumes, with the newer of the answers this tab kept
 * and those the server saved) when mounted, keeps the answers as they are given and saves them on
 * the server as the learner goes, counts the time on each question and down to the
 * deadline, and submits when asked or when the time is up. Grading is the server's: the browser
 * never holds the answers of a real attempt.
 */
export function useQuizAttempt(source: PlayerSource, { onFinished, onPreviewPassed }: AttemptCallbacks) {
  const previewShown = useRef<PreviewSession | null>(null);
  const [phase, setPhase] = useState<Phase>('starting');
  const [error, setError] = useState<string | null>(null);
  const [session, setSession] = useState<Session | null>(null);
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Record<string, AnswerValue>>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [timedOut, setTimedOut] = useState(false);
  const [timeOnQuestions] = useState(() => questionClock());
  const [saveState, setSaveState] = useState<AnswerSaveState>('idle');
  // What to play is fixed when the player opens; a parent re-rendering must not restart it.
  const sourceAtOpen = useRef(source);
  // When the learner last changed an answer (this browser's clock), kept in the draft for newer-wins on resume.
  const answersAt = useRef(0);
  // The answers this tab holds that the server may not: a draft newer than the server's copy.
  const unsavedAtOpen = useRef(false);
  const saver = useRef<AnswerSaver | null>(null);
  // Read by a save when it is sent, so that it always carries the newest answers.
  const latest = useRef<{ questions: PlayerQuestion[]; answers: Record<string, AnswerValue> }>({ questions: [], answers: {} });

  const start = useCallback(async () => {
    setPhase('starting');
    setError(null);
    setOutcome(null);
    setTimedOut(false);
    setIndex(0);
    setSaveState('idle');
    const source = sourceAtOpen.current;
    try {
      if (source.kind === 'preview') {
        const info = previewQuizInfo(source.quiz);
        // Each start is shuffled afresh, as each attempt is.
        previewShown.current = previewSession(source.quiz);
        setSession({
          attemptId: null,
          info,
          questions: previewShown.current.questions,
          deadlineMs: info.timeLimit ? Date.now() + info.timeLimit * 60_000 : null,
          attemptNumber: 1,
        });
        setAnswers({});
        timeOnQuestions.restart({});
      } else {
        const started = await startAttempt({ quizId: source.quizId, courseId: source.courseId, lessonId: source.lessonId });
        const skew = Date.parse(started.serverNow) - Date.now();
        const local = readDraft(started.attempt.id);
        const draft = newerAnswers(local, started.savedAnswers, skew);
        answersAt.current = draft.updatedAt ?? 0;
        unsavedAtOpen.current = !draft.fromServer && Object.keys(draft.answers).length > 0;
        setSession({
          attemptId: started.attempt.id,
          info: started.quiz,
          questions: started.questions,
          deadlineMs: started.deadline ? Date.parse(started.deadline) - skew : null,
          attemptNumber: started.attempt.attemptNumber,
        });
        setAnswers(draft.answers);
        timeOnQuestions.restart(draft.timeSpent);
      }
      setPhase('playing');
    } catch (err) {
      setError(errorMessage(err));
      setPhase('failed-to-start');
    }
  }, [timeOnQuestions]);

  useEffect(() => {
    void start();
  }, [start]);

  /** Adds the time on the current question to its total. */
  const lapCurrent = useCallback(() => {
    const q = session?.questions[index];
    if (q) timeOnQuestions.lap(q.id);
  }, [session, index, timeOnQuestions]);

  // Answers survive closing the player or reloading the page (the attempt itself lives on the server).
  useEffect(() => {
    if (session?.attemptId && phase === 'playing') {
      writeDraft(session.attemptId, { answers, timeSpent: timeOnQuestions.spent, updatedAt: answersAt.current });
    }
  }, [answers, session, phase, index, timeOnQuestions]);

  useEffect(() => {
    latest.current = { questions: session?.questions ?? [], answers };
  }, [session, answers]);

  // ...and are saved on the server as the learner goes (docs/decisions/095), while the attempt runs:
  // debounced, at once on another question or when the page is hidden, retried until it gets through.
  const attemptId = session?.attemptId ?? null;
  const playing = phase === 'playing';
  useEffect(() => {
    if (!attemptId || !playing) return;
    const current = new AnswerSaver({
      send: (urgent) =>
        saveAttemptAnswers(
          attemptId,
          answerList(latest.current.questions, latest.current.answers, timeOnQuestions.spent),
          urgent,
        ),
      isFinal: isFinalRefusal,
      onState: setSaveState,
    });
    saver.current = current;
    // A draft newer than the server's copy (or a submit that failed under load): the server gets it now.
    if (unsavedAtOpen.current) {
      unsavedAtOpen.current = false;
      current.change();
      current.saveNow();
    }
    const onHidden = () => {
      if (document.visibilityState === 'hidden') current.saveNow(true);
    };
    const onOnline = () => current.retryNow();
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('online', onOnline);
    return () => {
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('online', onOnline);
      current.dispose();
      if (saver.current === current) saver.current = null;
    };
  }, [attemptId, playing, timeOnQuestions]);

  const goTo = (next: number) => {
    if (!session || next < 0 || next >= session.questions.length) return;
    lapCurrent();
    setIndex(next);
    saver.current?.saveNow();
  };

  const answer = (questionId: string, value: AnswerValue) => {
    answersAt.current = Date.now();
    setAnswers((all) => ({ ...all, [questionId]: value }));
    saver.current?.change();
  };

  const submit = async (auto: boolean) => {
    if (!session || phase !== 'playing') return;
    lapCurrent();
    setTimedOut(auto);
    setPhase('submitting');
    setError(null);
    try {
      if (source.kind === 'preview') {
        const graded = gradePreview(source.quiz, previewShown.current!, answers, timeOnQuestions.spent);
        setOutcome({
          ...graded,
          questionsRevealed: session.info.showExplanations !== 'after_course',
          lateAnswers: 0,
          pendingReviews: 0,
        });
        if (graded.status === 'passed') onPreviewPassed?.();
      } else {
        const result = await submitAttempt(session.attemptId!, answerList(session.questions, answers, timeOnQuestions.spent));
        dropDraft(session.attemptId!);
        setOutcome({
          status: result.status === 'passed' ? 'passed' : 'failed',
          score: result.score,
          maxScore: result.maxScore,
          percentage: result.percentage,
          questionsRevealed: result.questionsRevealed,
          questions: result.questions,
          lateAnswers: result.lateAnswers,
          pendingReviews: result.pendingReviews ?? 0,
          hidden: !!result.resultHidden,
        });
        onFinished?.(result);
      }
      setPhase('result');
    } catch (err) {
      setError(errorMessage(err));
      // The answers not yet on the server go there as soon as the player runs again: a refused submit loses nothing.
      unsavedAtOpen.current = answersAt.current > 0;
      setPhase('playing');
    }
  };

  const secondsLeft = useCountdown(
    phase === 'playing' || phase === 'submitting' ? (session?.deadlineMs ?? null) : null,
    () => void submit(true),
  );

  const info = session?.info;
  const canRetry =
    !!outcome &&
    outcome.status === 'failed' &&
    !!info &&
    info.maxAttempts > 1 &&
    (source.kind === 'preview' || (session?.attemptNumber ?? 0) < info.maxAttempts);

  return {
    phase,
    error,
    session,
    index,
    answers,
    outcome,
    timedOut,
    secondsLeft,
    canRetry,
    /** How the answers' saving goes; 'idle' in a preview and before the first change. */
    saveState: playing || phase === 'submitting' ? saveState : 'idle',
    start,
    goTo,
    answer,
    submit,
  };
}
