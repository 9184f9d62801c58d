import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { PROGRESS_MSG, type AttemptDetail } from '@portal/contracts';
import { Button, ErrorBox, Muted } from '@portal/ui';
import { useQuizAttempt, type PlayerSource } from '../hooks/useQuizAttempt';
import { CloseConfirm } from './player/CloseConfirm';
import { Body, Footer } from './player/layout';
import { PlayerHeader } from './player/PlayerHeader';
import { QuestionView } from './player/QuestionView';
import { EMBEDDED_MSG, ResultView } from './player/ResultView';

export type { PlayerSource } from '../hooks/useQuizAttempt';

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

/**
 * The quiz-taking overlay: one question at a time, back / next / numbered
 * navigation, 'Завершить квиз' on the last, an m:ss countdown that finishes the quiz at zero, and
 * the result. Grading is the server's: the browser never holds the answers of a real attempt.
 */
export function QuizPlayer({ source, onClose, onFinished, onPreviewPassed, embedded = false, closeLabel }: QuizPlayerProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [askingToClose, setAskingToClose] = useState(false);
  const preview = source.kind === 'preview';

  useEffect(() => {
    const el = dialog.current;
    if (embedded || !el) return;
    if (!el.open) el.showModal();
    return () => el.close();
  }, [embedded]);

  const attempt = useQuizAttempt(source, { onFinished, onPreviewPassed });
  const { phase, session, index, outcome, secondsLeft } = attempt;

  /** Closing a running attempt asks first and says what happens; anything else closes at once. */
  const requestClose = () => {
    if (phase === 'submitting') return;
    if (!preview && phase === 'playing') setAskingToClose(true);
    else onClose();
  };

  const retry = () => {
    setAskingToClose(false);
    void attempt.start();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (phase !== 'playing' || askingToClose || isField(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowRight') attempt.goTo(index + 1);
    if (e.key === 'ArrowLeft') attempt.goTo(index - 1);
  };

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
      <PlayerHeader
        title={session?.info.title ?? 'Квиз'}
        preview={preview}
        secondsLeft={phase === 'result' ? null : secondsLeft}
        onClose={embedded ? null : requestClose}
        closeDisabled={phase === 'submitting'}
        saveState={attempt.saveState}
      />

      {askingToClose && phase === 'playing' && (
        <CloseConfirm
          deadlineMs={session?.deadlineMs ?? null}
          secondsLeft={secondsLeft}
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
          <ErrorBox>{attempt.error}</ErrorBox>
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
      {(phase === 'playing' || phase === 'submitting') && session?.questions[index] && (
        <QuestionView
          questions={session.questions}
          index={index}
          answers={attempt.answers}
          preview={preview}
          quizId={source.kind === 'attempt' ? source.quizId : undefined}
          submitting={phase === 'submitting'}
          error={attempt.error}
          onGo={attempt.goTo}
          onAnswer={attempt.answer}
          onSubmit={() => void attempt.submit(false)}
        />
      )}

      {phase === 'result' && outcome && (
        <ResultView
          outcome={outcome}
          info={session?.info}
          timedOut={attempt.timedOut}
          embedded={embedded}
          closeLabel={closeLabel ?? PROGRESS_MSG.close}
          onClose={onClose}
          onRetry={attempt.canRetry ? retry : null}
        />
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
