import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnswerValue, AttemptDetail, PlayerQuestion, QuestionResult, Quiz, QuizInfo } from '@portal/contracts';
import { errorMessage } from '@portal/web-core';
import { startAttempt, submitAttempt } from '../api/player';
import { gradePreview, previewQuizInfo, previewSession, type PreviewSession } from '../components/preview';
import { questionClock } from './questionClock';
import { dropDraft, readDraft, writeDraft } from './useAnswerDraft';
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

interface AttemptCallbacks {
  /** A real attempt was graded (not called in preview). */
  onFinished?: (result: AttemptDetail) => void;
  /** A preview was passed (graded in the page; nothing is reported). */
  onPreviewPassed?: () => void;
}

/**
 * One attempt from start to result: starts (or resumes, with the answers this tab kept) when
 * mounted, keeps the answers as they are given, counts the time on each question and down to the
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
  // What to play is fixed when the player opens; a parent re-rendering must not restart it.
  const sourceAtOpen = useRef(source);

  const start = useCallback(async () => {
    setPhase('starting');
    setError(null);
    setOutcome(null);
    setTimedOut(false);
    setIndex(0);
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
        const draft = readDraft(started.attempt.id);
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
      writeDraft(session.attemptId, { answers, timeSpent: timeOnQuestions.spent });
    }
  }, [answers, session, phase, index, timeOnQuestions]);

  const goTo = (next: number) => {
    if (!session || next < 0 || next >= session.questions.length) return;
    lapCurrent();
    setIndex(next);
  };

  const answer = (questionId: string, value: AnswerValue) => setAnswers((all) => ({ ...all, [questionId]: value }));

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
        const list = session.questions.map((q) => ({
          questionId: q.id,
          answer: isBlank(answers[q.id]) ? null : answers[q.id],
          timeSpent: Math.round(timeOnQuestions.spent[q.id] ?? 0),
        }));
        const result = await submitAttempt(session.attemptId!, list);
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

  return { phase, error, session, index, answers, outcome, timedOut, secondsLeft, canRetry, start, goTo, answer, submit };
}
