/** «Создать с ИИ» after a job was cancelled or failed: what happened, then the list or the form again. */
import type { Ref } from 'react';
import styled from 'styled-components';
import { Button, ErrorBox, Muted } from '@portal/ui';
import { Actions, Panel } from './parts';

interface EndedViewProps {
  kind: 'cancelled' | 'failed';
  message: string;
  onClose: () => void;
  onBackToForm: () => void;
  /** Takes the focus when the view shows. */
  mainActionRef: Ref<HTMLButtonElement>;
}

export function EndedView({ kind, message, onClose, onBackToForm, mainActionRef }: EndedViewProps) {
  return (
    <Panel>
      {kind === 'failed' ? <ErrorBox>{message}</ErrorBox> : <Status role="status">{message}</Status>}
      <Muted>Введённые тема, аудитория и цели сохранены в форме.</Muted>
      <Actions>
        <Button type="button" $variant="outline" onClick={onClose}>
          К списку курсов
        </Button>
        <Button ref={mainActionRef} type="button" onClick={onBackToForm}>
          {kind === 'failed' ? 'Попробовать снова' : 'Вернуться к форме'}
        </Button>
      </Actions>
    </Panel>
  );
}

const Status = styled.p`
  margin: 0;
  padding: 12px 16px;
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  border: 1px solid ${({ theme }) => theme.colors.border};
`;
