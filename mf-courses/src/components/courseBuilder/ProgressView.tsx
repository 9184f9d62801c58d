/** «Создать с ИИ» while the job runs: its progress, the stages and «Отменить». */
import type { Ref } from 'react';
import styled from 'styled-components';
import type { GenerationJob } from '@portal/contracts';
import { Button, ProgressBar, VisuallyHidden } from '@portal/ui';
import { progressOf, stageMarks, type StageMark } from '../../model/courseBuilder';
import { Actions, Notice, Panel } from './parts';

interface ProgressViewProps {
  job: GenerationJob;
  cancelling: boolean;
  /** Whether quizzes were asked for: their stage is listed only then. */
  withQuizzes: boolean;
  onCancel: (job: GenerationJob) => void;
  /** Takes the focus when the view shows. */
  mainActionRef: Ref<HTMLButtonElement>;
}

export function ProgressView({ job, cancelling, withQuizzes, onCancel, mainActionRef }: ProgressViewProps) {
  const { value, label } = progressOf(job);
  return (
    <Panel>
      <Notice role="note" $tone={job.source}>
        {job.notice}
      </Notice>
      <ProgressBar name="Ход генерации" value={value} valueText={`${value}% — ${label}`} />
      <StageNow aria-live="polite">
        <span>{label}</span>
        <span>{value}%</span>
      </StageNow>
      <Stages aria-label="Этапы генерации">
        {stageMarks(job, withQuizzes).map((s) => (
          <StageItem key={s.stage} $mark={s.mark} aria-current={s.mark === 'current' ? 'step' : undefined}>
            <StageDot $mark={s.mark} aria-hidden="true">
              {s.mark === 'done' ? '✓' : ''}
            </StageDot>
            <span>
              {s.label}
              <VisuallyHidden>
                {s.mark === 'done' ? ' — готово' : s.mark === 'current' ? ' — сейчас' : ' — впереди'}
              </VisuallyHidden>
            </span>
          </StageItem>
        ))}
      </Stages>
      <Actions>
        <Button ref={mainActionRef} type="button" $variant="outline" disabled={cancelling} onClick={() => onCancel(job)}>
          {cancelling ? 'Отменяем…' : 'Отменить'}
        </Button>
      </Actions>
    </Panel>
  );
}

const StageNow = styled.p`
  display: flex;
  justify-content: space-between;
  margin: -6px 0 0;
  font-weight: 600;
  font-variant-numeric: tabular-nums;
`;
const Stages = styled.ol`
  display: grid;
  gap: 8px;
  margin: 0;
  padding: 0;
  list-style: none;
`;
const StageItem = styled.li<{ $mark: StageMark }>`
  display: flex;
  align-items: center;
  gap: 10px;
  font-size: 14px;
  font-weight: ${({ $mark }) => ($mark === 'current' ? 600 : 400)};
  color: ${({ theme, $mark }) => ($mark === 'todo' ? theme.colors.muted : theme.colors.text)};
`;
const StageDot = styled.span<{ $mark: StageMark }>`
  display: inline-grid;
  place-items: center;
  flex: none;
  width: 20px;
  height: 20px;
  border-radius: 50%;
  font-size: 12px;
  border: 2px solid ${({ theme, $mark }) => ($mark === 'todo' ? theme.colors.border : theme.colors.primary)};
  background: ${({ theme, $mark }) => ($mark === 'done' ? theme.colors.primary : 'transparent')};
  color: ${({ theme }) => theme.colors.primaryText};
  box-shadow: ${({ theme, $mark }) => ($mark === 'current' ? `inset 0 0 0 3px ${theme.colors.surface}, inset 0 0 0 10px ${theme.colors.primary}` : 'none')};
`;
