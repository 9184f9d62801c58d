import styled from 'styled-components';
import { EDITOR_MSG } from '@portal/contracts';
import { Button } from '@portal/ui';
import type { AutosaveStatus } from '../autosave/autosave';

const time = new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** The text of a save status. */
export function statusText(status: AutosaveStatus, dirty: boolean): string {
  switch (status.state) {
    case 'saving':
      return 'Сохранение...';
    case 'saved':
      return dirty ? 'Есть несохранённые изменения' : `Сохранено в ${time.format(status.savedAt)}`;
    case 'error':
      return `Ошибка сохранения: ${status.message}`;
    default:
      return dirty ? 'Есть несохранённые изменения' : 'Изменения сохраняются автоматически';
  }
}

interface SaveIndicatorProps {
  status: AutosaveStatus;
  /** Something is not stored yet (after an error has gone back to idle, for instance). */
  dirty: boolean;
  onRetry: () => void;
}

/** Idle, saving, saved with its time, or error with 'Повторить', which saves at once. */
export function SaveIndicator({ status, dirty, onRetry }: SaveIndicatorProps) {
  const text = statusText(status, dirty);
  return (
    <Box data-state={status.state} aria-label="Статус сохранения">
      <Text role="status" aria-live="polite" $state={status.state}>
        <Dot aria-hidden="true" $state={status.state} />
        {text}
      </Text>
      {status.state === 'error' && (
        <Button type="button" $size="sm" $variant="destructive" onClick={onRetry}>
          {EDITOR_MSG.retry}
        </Button>
      )}
      {status.state !== 'error' && status.state !== 'saving' && dirty && (
        <Button type="button" $size="sm" $variant="outline" onClick={onRetry}>
          Сохранить сейчас
        </Button>
      )}
    </Box>
  );
}

type State = AutosaveStatus['state'];
const colorOf = (state: State, c: { danger: string; success: string; warning: string; muted: string }) =>
  state === 'error' ? c.danger : state === 'saved' ? c.success : state === 'saving' ? c.warning : c.muted;

const Box = styled.section`
  display: flex;
  align-items: center;
  gap: 8px;
  flex-wrap: wrap;
  min-height: 32px;
`;
const Text = styled.span<{ $state: State }>`
  display: inline-flex;
  align-items: center;
  gap: 8px;
  font-size: 13px;
  color: ${({ theme, $state }) => ($state === 'error' ? theme.colors.danger : theme.colors.muted)};
  overflow-wrap: anywhere;
`;
const Dot = styled.span<{ $state: State }>`
  width: 8px;
  height: 8px;
  border-radius: 50%;
  flex: none;
  background: ${({ theme, $state }) => colorOf($state, theme.colors)};
`;
