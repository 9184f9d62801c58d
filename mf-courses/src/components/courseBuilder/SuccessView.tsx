/** «Создать с ИИ» once the draft is built: what it holds, then the editor (which opens by itself unless late). */
import type { Ref } from 'react';
import styled from 'styled-components';
import { GENERATION_MSG, type GenerationJob } from '@portal/contracts';
import { Button, Muted } from '@portal/ui';
import { Actions, Notice, Panel } from './parts';

interface SuccessViewProps {
  job: GenerationJob;
  courseId: string;
  /** «Отменить» came after the server had finished: the draft is kept and nothing opens by itself. */
  late: boolean;
  /** «Черновик готов: …», or null while the course is read or when reading it failed. */
  summary: string | null;
  summaryFailed: boolean;
  onClose: () => void;
  onOpenEditor: (courseId: string) => void;
  /** Takes the focus when the view shows. */
  mainActionRef: Ref<HTMLButtonElement>;
}

export function SuccessView({
  job,
  courseId,
  late,
  summary,
  summaryFailed,
  onClose,
  onOpenEditor,
  mainActionRef,
}: SuccessViewProps) {
  return (
    <Panel>
      <Done role="status">
        <DoneMark aria-hidden="true">✓</DoneMark>
        <div>
          <strong>{summary ?? (summaryFailed ? 'Черновик готов' : 'Черновик готов, считаем модули…')}</strong>
          {late && <Muted as="span">{GENERATION_MSG.alreadyFinished}: черновик сохранён.</Muted>}
        </div>
      </Done>
      <Notice role="note" $tone={job.source}>
        {job.notice}
      </Notice>
      <Muted>
        Дальше — шаги 3 и 4: настройте содержание в редакторе и опубликуйте курс, когда он будет готов. Черновик виден только
        авторам.
      </Muted>
      {!late && <Muted>Редактор откроется сам через пару секунд.</Muted>}
      <Actions>
        <Button type="button" $variant="outline" onClick={onClose}>
          К списку курсов
        </Button>
        <Button ref={mainActionRef} type="button" onClick={() => onOpenEditor(courseId)}>
          Открыть редактор
        </Button>
      </Actions>
    </Panel>
  );
}

const Done = styled.div`
  display: flex;
  gap: 12px;
  align-items: flex-start;
  strong {
    display: block;
    font-size: 16px;
  }
`;
const DoneMark = styled.span`
  display: inline-grid;
  place-items: center;
  flex: none;
  width: 32px;
  height: 32px;
  border-radius: 50%;
  font-weight: 700;
  background: ${({ theme }) => theme.colors.success};
  color: ${({ theme }) => theme.colors.surface};
`;
