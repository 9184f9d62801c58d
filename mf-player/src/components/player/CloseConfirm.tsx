import { formatCountdown } from '@portal/contracts';
import { ConfirmDialog } from '@portal/ui';

const clock = new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit' });

export const CLOSE_MSG = {
  title: 'Закрыть квиз?',
  confirm: 'Закрыть квиз',
  /** What closing a running attempt does: nothing is spent, and how long it may be resumed. */
  text: (deadlineMs: number | null, secondsLeft: number | null) =>
    deadlineMs !== null && secondsLeft !== null
      ? `Попытка не будет потеряна: до ${clock.format(deadlineMs)} (осталось ${formatCountdown(secondsLeft)}) её можно продолжить с того же вопроса кнопкой «Продолжить попытку», время при этом идёт. Ответы сохраняются по ходу попытки, продолжить можно и на другом устройстве. Если не вернуться до конца времени, попытка будет закрыта и оценена по сохранённым ответам; лучший результат на карточке квиза останется прежним.`
      : 'Попытка не будет потеряна: её можно продолжить с того же вопроса кнопкой «Продолжить попытку», в том числе на другом устройстве. Ответы сохраняются по ходу попытки.',
};

interface CloseConfirmProps {
  deadlineMs: number | null;
  secondsLeft: number | null;
  onCancel: () => void;
  onConfirm: () => void;
}

/** The question before closing a running attempt: it says the attempt can be resumed, and until when. */
export function CloseConfirm({ deadlineMs, secondsLeft, onCancel, onConfirm }: CloseConfirmProps) {
  return (
    <ConfirmDialog
      title={CLOSE_MSG.title}
      message={CLOSE_MSG.text(deadlineMs, secondsLeft)}
      confirmLabel={CLOSE_MSG.confirm}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
