import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import {
  CANDIDATE_LINK_MSG,
  PROGRESS_MSG,
  REVIEW_MSG,
  formatCountdown,
  formatMessage,
  resultLine,
  type AnswerValue,
  type AttemptDetail,
  type PlayerQuestion,
  type QuestionResult,
  type Quiz,
  type QuizInfo,
  ruCount,
} from '@portal/contracts';
import { Button, ConfirmDialog, ErrorBox, Muted } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { startAttempt, submitAttempt } from '../api/player';
import { useCountdown } from '../hooks/useCountdown';
import { dropDraft, readDraft, writeDraft } from '../hooks/useAnswerDraft';
import { QuestionInput } from './QuestionInput';
import { gradePreview, previewQuizInfo, previewSession, type PreviewSession } from './preview';
import { ProgressBar } from './ProgressBar';
import { QuestionResults } from './QuestionResults';

/** What to play: a real attempt at a quiz where it stands, or an author's preview that reports nothing. */
export type PlayerSource =
  { kind: 'attempt'; quizId: string; courseId: string; lessonId: string } | { kind: 'preview'; quiz: Quiz };

interface Session {
  attemptId: string | null;
  info: QuizInfo;
  questions: PlayerQuestion[];
  /** On this browser's clock (the server's deadline moved by the clocks' difference). */
  deadlineMs: number | null;
  attemptNumber: number;
}

interface Outcome {
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

export const pendingText = (n: number) =>
  `${REVIEW_MSG.pending}: ${ruCount(n, { one: 'ответ ждёт', few: 'ответа ждут', many: 'ответов ждут' })} оценки куратора, итог станет окончательным после проверки.`;

type Phase = 'starting' | 'playing' | 'submitting' | 'result' | 'failed-to-start';

const isBlank = (a: AnswerValue | undefined) =>
  a === undefined ||
  a === null ||
  (typeof a === 'string' && !a.trim()) ||
  (Array.isArray(a) && a.every((v) => typeof v === 'string' && !v.trim())) ||
  (typeof a === 'object' && !Array.isArray(a) && !Object.keys(a).length);
const isField = (el: EventTarget) => el instanceof HTMLElement && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName);

interface QuizPlayerProps {
  source: PlayerSource;
  onClose: () => void;
  /** A real attempt was graded (not called in preview). */
  onFinished?: (result: AttemptDetail) => void;
  /** A preview was passed (graded in the page; nothing is reported). */
  onPreviewPassed?: () => void;
  /**
   * Shown inside another dialog (the editor's preview): a region instead of a modal dialog of its
   * own, without its own ✕ (the host closes it), its result closed with `closeLabel`.
   */
  embedded?: boolean;
  closeLabel?: string;
}

export const EMBEDDED_MSG = { region: 'Предпросмотр квиза', result: 'Результат предпросмотра' };

const clock = new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit' });

export const CLOSE_MSG = {
  title: 'Закрыть квиз?',
  confirm: 'Закрыть квиз',
  /** What closing a running attempt does: nothing is spent, and how long it may be resumed. */
  text: (deadlineMs: number | null, secondsLeft: number | null) =>
    deadlineMs !== null && secondsLeft !== null
      ? `Попытка не будет потеряна: до ${clock.format(deadlineMs)} (осталось ${formatCountdown(secondsLeft)}) её можно продолжить с того же вопроса кнопкой «Продолжить попытку», время при этом идёт. Если не вернуться до конца времени, попытка будет закрыта без ответов и засчитана как не пройденная; лучший результат на карточке квиза останется прежним.`
      : 'Попытка не будет потеряна: её можно продолжить с того же вопроса кнопкой «Продолжить попытку». Ответы, данные до закрытия, сохраняются в этой вкладке браузера.',
};

/**
 * The quiz-taking overlay: one question at a time, back / next / numbered
 * navigation, 'Завершить квиз' on the last, an m:ss countdown that finishes the quiz at zero, and
 * the result. Grading is the server's: the browser never holds the answers of a real attempt.
 */
export function QuizPlayer({ source, onClose, onFinished, onPreviewPassed, embedded = false, closeLabel }: QuizPlayerProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const previewShown = useRef<PreviewSession | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const [phase, setPhase] = useState<Phase>('starting');
  const [error, setError] = useState<string | null>(null);
  const [session, setSession] = useState<Session | null>(null);
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Record<string, AnswerValue>>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [timedOut, setTimedOut] = useState(false);
  const [askingToClose, setAskingToClose] = useState(false);
  const timeSpent = useRef<Record<string, number>>({});
  const shownAt = useRef(performance.now());
  const preview = source.kind === 'preview';
  // What to play is fixed when the player opens; a parent re-rendering must not restart it.
  const sourceAtOpen = useRef(source);

  useEffect(() => {
    const el = dialog.current;
    if (embedded || !el) return;
    if (!el.open) el.showModal();
    return () => el.close();
  }, [embedded]);

  const begin = useCallback(async () => {
    setPhase('starting');
    setError(null);
    setOutcome(null);
    setTimedOut(false);
    setAskingToClose(false);
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
        timeSpent.current = {};
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
        timeSpent.current = draft.timeSpent;
      }
      shownAt.current = performance.now();
      setPhase('playing');
    } catch (err) {
      setError(errorMessage(err));
      setPhase('failed-to-start');
    }
  }, []);

  useEffect(() => {
    void begin();
  }, [begin]);

  /** Adds the time on the current question to its total. */
  const account = useCallback(() => {
    const q = session?.questions[index];
    if (!q) return;
    const now = performance.now();
    timeSpent.current = { ...timeSpent.current, [q.id]: (timeSpent.current[q.id] ?? 0) + (now - shownAt.current) / 1000 };
    shownAt.current = now;
  }, [session, index]);

  // Answers survive closing the player or reloading the page (the attempt itself lives on the server).
  useEffect(() => {
    if (session?.attemptId && phase === 'playing') writeDraft(session.attemptId, { answers, timeSpent: timeSpent.current });
  }, [answers, session, phase, index]);

  const go = (next: number) => {
    if (!session || next < 0 || next >= session.questions.length) return;
    account();
    setIndex(next);
  };

  useEffect(() => {
    if (phase === 'playing') heading.current?.focus();
    if (phase === 'result') resultHeading.current?.focus();
  }, [index, phase]);

  const finish = async (auto: boolean) => {
    if (!session || phase !== 'playing') return;
    account();
    setTimedOut(auto);
    setPhase('submitting');
    setError(null);
    try {
      if (source.kind === 'preview') {
        const graded = gradePreview(source.quiz, previewShown.current!, answers, timeSpent.current);
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
          timeSpent: Math.round(timeSpent.current[q.id] ?? 0),
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
    () => void finish(true),
  );

  /** Closing a running attempt asks first and says what happens; anything else closes at once. */
  const requestClose = () => {
    if (phase === 'submitting') return;
    if (!preview && phase === 'playing') setAskingToClose(true);
    else onClose();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (phase !== 'playing' || askingToClose || isField(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowRight') go(index + 1);
    if (e.key === 'ArrowLeft') go(index - 1);
  };

  const question = session?.questions[index];
  const last = !!session && index === session.questions.length - 1;
  const info = session?.info;
  const canRetry =
    !!outcome &&
    outcome.status === 'failed' &&
    !!info &&
    info.maxAttempts > 1 &&
    (preview || (session?.attemptNumber ?? 0) < info.maxAttempts);

  return (
    <Overlay
      ref={dialog}
      as={embedded ? 'section' : undefined}
      $embedded={embedded}
      aria-labelledby={embedded ? undefined : 'quiz-player-title'}
      aria-label={embedded ? EMBEDDED_MSG.region : undefined}
      onKeyDown={onKeyDown}
      onCancel={(e) => {
        e.preventDefault();
        // The question's own dialog answers Escape while it is open.
        if (e.target === e.currentTarget) requestClose();
      }}
    >
      <Header>
        <div>
          <Title id="quiz-player-title">{info?.title ?? 'Квиз'}</Title>
          {preview && <Muted as="span">{PROGRESS_MSG.preview}</Muted>}
        </div>
        {secondsLeft !== null && phase !== 'result' && (
          <Timer
            role="timer"
            aria-label={`${PROGRESS_MSG.timeLeft}: ${formatCountdown(secondsLeft)}`}
            $urgent={secondsLeft <= 30}
          >
            {formatCountdown(secondsLeft)}
          </Timer>
        )}
        {!embedded && (
          <Button
            type="button"
            $variant="ghost"
            $size="icon"
            aria-label={PROGRESS_MSG.close}
            onClick={requestClose}
            disabled={phase === 'submitting'}
          >
            ✕
          </Button>
        )}
      </Header>

      {askingToClose && phase === 'playing' && (
        <ConfirmDialog
          title={CLOSE_MSG.title}
          message={CLOSE_MSG.text(session?.deadlineMs ?? null, secondsLeft)}
          confirmLabel={CLOSE_MSG.confirm}
          onCancel={() => setAskingToClose(false)}
          onConfirm={() => {
            setAskingToClose(false);
            onClose();
          }}
        />
      )}
      {phase === 'starting' && <Muted role="status">Загрузка квиза...</Muted>}
      {phase === 'failed-to-start' && (
        <Body>
          <ErrorBox>{error}</ErrorBox>
          <Footer>
            <Button type="button" $variant="outline" onClick={onClose}>
              {PROGRESS_MSG.close}
            </Button>
          </Footer>
        </Body>
      )}

      {phase === 'playing' && session && !session.questions.length && (
        <Body>
          <Muted as="p">{PROGRESS_MSG.noQuestions}</Muted>
        </Body>
      )}
      {(phase === 'playing' || phase === 'submitting') && session && question && (
        <Body>
          <Numbers role="navigation" aria-label="Вопросы квиза">
            {session.questions.map((q, i) => (
              <NumberButton
                key={q.id}
                type="button"
                $variant={i === index ? 'default' : 'outline'}
                $size="sm"
                $answered={!isBlank(answers[q.id])}
                aria-current={i === index ? 'step' : undefined}
                aria-label={`Вопрос ${i + 1}${isBlank(answers[q.id]) ? '' : ', есть ответ'}`}
                onClick={() => go(i)}
                disabled={phase === 'submitting'}
              >
                {i + 1}
              </NumberButton>
            ))}
          </Numbers>
          <ProgressBar
            value={((index + 1) / session.questions.length) * 100}
            label={formatMessage(PROGRESS_MSG.questionOf, { n: index + 1, total: session.questions.length })}
            size="sm"
          />
          <Muted as="p">{formatMessage(PROGRESS_MSG.questionOf, { n: index + 1, total: session.questions.length })}</Muted>
          <fieldset>
            <legend>
              <QuestionText ref={heading} tabIndex={-1}>
                {question.type === 'fill_blanks' ? 'Заполните пропуски' : question.question}
              </QuestionText>
            </legend>
            <QuestionInput
              key={question.id}
              question={question}
              value={answers[question.id]}
              preview={preview}
              quizId={source.kind === 'attempt' ? source.quizId : undefined}
              disabled={phase === 'submitting'}
              onChange={(value) => setAnswers((all) => ({ ...all, [question.id]: value }))}
            />
          </fieldset>
          {error && <ErrorBox>{error}</ErrorBox>}
          <Footer>
            <Button
              type="button"
              $variant="outline"
              onClick={() => go(index - 1)}
              disabled={index === 0 || phase === 'submitting'}
            >
              {PROGRESS_MSG.prev}
            </Button>
            {last ? (
              <Button type="button" onClick={() => void finish(false)} disabled={phase === 'submitting'}>
                {PROGRESS_MSG.finishQuiz}
              </Button>
            ) : (
              <Button type="button" onClick={() => go(index + 1)} disabled={phase === 'submitting'}>
                {PROGRESS_MSG.next}
              </Button>
            )}
          </Footer>
        </Body>
      )}

      {phase === 'result' && outcome?.hidden && (
        <Body>
          <Verdict ref={resultHeading} tabIndex={-1} $tone="passed">
            {CANDIDATE_LINK_MSG.submittedTitle}
          </Verdict>
          {timedOut && <Muted as="p">{PROGRESS_MSG.timeUp}</Muted>}
          <p role="status">{CANDIDATE_LINK_MSG.submitted}</p>
          <Footer>
            <Button type="button" $variant="outline" onClick={onClose}>
              {closeLabel ?? PROGRESS_MSG.close}
            </Button>
          </Footer>
        </Body>
      )}

      {phase === 'result' && outcome && !outcome.hidden && info && (
        <Body role={embedded ? 'region' : undefined} aria-label={embedded ? EMBEDDED_MSG.result : undefined}>
          <Verdict ref={resultHeading} tabIndex={-1} $tone={verdictTone(outcome)}>
            {verdictText(outcome)}
          </Verdict>
          {timedOut && <Muted as="p">{PROGRESS_MSG.timeUp}</Muted>}
          <p>{resultLine(outcome)}</p>
          {outcome.pendingReviews > 0 && <p role="status">{pendingText(outcome.pendingReviews)}</p>}
          <ProgressBar
            value={outcome.percentage}
            label={`${outcome.percentage}%`}
            tone={outcome.status === 'passed' ? 'success' : 'danger'}
          />
          {outcome.status === 'failed' && <p>{formatMessage(PROGRESS_MSG.passRequired, { percent: info.passingScore })}</p>}
          {outcome.questionsRevealed ? (
            <QuestionResults questions={outcome.questions} />
          ) : (
            <Muted as="p">{PROGRESS_MSG.explanationsAfterCourse}</Muted>
          )}
          <Footer>
            <Button type="button" $variant="outline" onClick={onClose}>
              {closeLabel ?? PROGRESS_MSG.close}
            </Button>
            {canRetry && (
              <Button type="button" onClick={() => void begin()}>
                {PROGRESS_MSG.tryAgain}
              </Button>
            )}
          </Footer>
        </Body>
      )}
    </Overlay>
  );
}

const Overlay = styled.dialog<{ $embedded: boolean }>`
  width: ${({ $embedded }) => ($embedded ? '100%' : 'min(760px, calc(100vw - 24px))')};
  max-height: ${({ $embedded }) => ($embedded ? 'none' : 'calc(100vh - 24px)')};
  padding: 0;
  overflow: auto;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  box-shadow: ${({ $embedded }) => ($embedded ? 'none' : '0 24px 60px rgba(0, 0, 0, 0.4)')};
  &::backdrop {
    background: rgba(10, 12, 20, 0.6);
  }
`;
const Header = styled.header`
  position: sticky;
  top: 0;
  z-index: 1;
  display: flex;
  align-items: center;
  gap: 12px;
  padding: 16px 20px;
  background: ${({ theme }) => theme.colors.surface};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  > div {
    flex: 1;
    display: grid;
  }
`;
const Title = styled.h2`
  margin: 0;
  font-size: 18px;
`;
const Timer = styled.span<{ $urgent: boolean }>`
  font-variant-numeric: tabular-nums;
  font-weight: 700;
  font-size: 18px;
  padding: 4px 10px;
  border-radius: ${({ theme }) => theme.radius};
  color: ${({ theme, $urgent }) => ($urgent ? theme.colors.danger : theme.colors.text)};
  background: ${({ theme }) => theme.colors.surfaceAlt};
`;
const Body = styled.div`
  display: grid;
  gap: 16px;
  padding: 20px;
  fieldset {
    border: 0;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 12px;
    min-width: 0;
  }
  legend {
    padding: 0;
    margin-bottom: 12px;
  }
  p {
    margin: 0;
  }
`;
const Numbers = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
`;
const NumberButton = styled(Button)<{ $answered: boolean }>`
  min-width: 36px;
  ${({ $answered, theme }) => ($answered ? `box-shadow: inset 0 -3px 0 ${theme.colors.success};` : '')}
`;
const QuestionText = styled.h3`
  margin: 0;
  font-size: 18px;
  outline: none;
`;
const Footer = styled.div`
  display: flex;
  justify-content: space-between;
  gap: 8px;
  flex-wrap: wrap;
`;
/**
 * The verdict: passed or not, except while answers wait for a curator, when the score is provisional
 * and nothing is decided yet («Ожидает проверки», neither green nor red).
 */
const verdictTone = ({ status, pendingReviews }: Pick<Outcome, 'status' | 'pendingReviews'>) =>
  pendingReviews > 0 ? 'pending' : status === 'passed' ? 'passed' : 'failed';
const verdictText = (outcome: Pick<Outcome, 'status' | 'pendingReviews'>) =>
  ({
    pending: PROGRESS_MSG.lessonAwaitingReview,
    passed: PROGRESS_MSG.quizPassed,
    failed: PROGRESS_MSG.quizFailed,
  })[verdictTone(outcome)];

const Verdict = styled.h3<{ $tone: 'pending' | 'passed' | 'failed' }>`
  margin: 0;
  font-size: 22px;
  outline: none;
  color: ${({ theme, $tone }) =>
    $tone === 'pending' ? theme.colors.warning : $tone === 'passed' ? theme.colors.success : theme.colors.danger};
`;
