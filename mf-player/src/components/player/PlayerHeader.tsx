import styled from 'styled-components';
import { PROGRESS_MSG, formatCountdown } from '@portal/contracts';
import { Button, Muted } from '@portal/ui';
import { ANSWER_SAVE_MSG, type AnswerSaveState } from '../../hooks/answerSaver';

interface PlayerHeaderProps {
  title: string;
  preview: boolean;
  /** Null hides the countdown (no deadline, or the result is shown). */
  secondsLeft: number | null;
  /** Null for an embedded player: its host closes it. */
  onClose: (() => void) | null;
  closeDisabled: boolean;
  /** How the answers' saving on the server goes; 'idle' says nothing (a preview, nothing changed yet). */
  saveState?: AnswerSaveState;
}

/** The player's sticky header: the quiz's title, how the answers' saving goes, the m:ss countdown and the ✕. */
export function PlayerHeader({ title, preview, secondsLeft, onClose, closeDisabled, saveState = 'idle' }: PlayerHeaderProps) {
  return (
    <Header>
      <div>
        <Title id="quiz-player-title">{title}</Title>
        {preview && <Muted as="span">{PROGRESS_MSG.preview}</Muted>}
        {/* Polite and without a status role: it never interrupts answering, nor stands beside the result's own status. */}
        <Muted as="span" aria-live="polite">
          {saveState === 'idle' ? '' : ANSWER_SAVE_MSG[saveState]}
        </Muted>
      </div>
      {secondsLeft !== null && (
        <Timer role="timer" aria-label={`${PROGRESS_MSG.timeLeft}: ${formatCountdown(secondsLeft)}`} $urgent={secondsLeft <= 30}>
          {formatCountdown(secondsLeft)}
        </Timer>
      )}
      {onClose && (
        <Button
          type="button"
          $variant="ghost"
          $size="icon"
          aria-label={PROGRESS_MSG.close}
          onClick={onClose}
          disabled={closeDisabled}
        >
          ✕
        </Button>
      )}
    </Header>
  );
}

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
