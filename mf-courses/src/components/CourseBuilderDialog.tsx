/** «Создать с ИИ»: the dialog that composes the generation job, the form and the views of each phase. */
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import styled from 'styled-components';
import { Dialog, VisuallyHidden } from '@portal/ui';
import { GENERATION_CONFIG_KEY, fetchGenerationConfig } from '../api/generation';
import { useGenerationJob } from '../hooks/useGenerationJob';
import { BUILDER_STEPS, stepIndexOf, type StageMark } from '../model/courseBuilder';
import { BuilderFormView, useBuilderForm } from './courseBuilder/BuilderFormView';
import { EndedView } from './courseBuilder/EndedView';
import { ProgressView } from './courseBuilder/ProgressView';
import { SuccessView } from './courseBuilder/SuccessView';

interface CourseBuilderDialogProps {
  onClose: () => void;
}

/**
 * «Создать с ИИ»: topic, audience and goals → a generation job polled with its progress → a summary
 * of the draft, then the editor. Mounted only while open, so every opening starts afresh. Closing
 * (✕, Esc, «Отмена») while a job runs cancels it, asking nothing: nothing half-made is kept.
 */
export function CourseBuilderDialog({ onClose }: CourseBuilderDialogProps) {
  const job = useGenerationJob();
  const { phase } = job;
  const form = useBuilderForm();
  const focusRef = useRef<HTMLElement | null>(null);

  // The native dialog gives focus back only when closed, not when removed: do it here. The opener is
  // read while rendering, before the dialog opens and takes the focus.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  const { leftForEditor } = job;
  useEffect(
    () => () => {
      if (!leftForEditor.current && opener?.isConnected) opener.focus();
    },
    [opener, leftForEditor],
  );

  // Each step puts the focus on what matters in it, since the button pressed has just gone: the
  // topic on the form, the main action elsewhere. (This effect runs after the shared Dialog's own,
  // so the dialog is already open; a view's own effect would run before it.) While the request
  // starts, the focus stays where it is.
  useEffect(() => {
    if (phase.step === 'starting') return;
    focusRef.current?.focus();
  }, [phase.step]);
  const bindFocus = (el: HTMLElement | null) => {
    focusRef.current = el;
  };

  const config = useQuery({
    queryKey: GENERATION_CONFIG_KEY,
    queryFn: ({ signal }) => fetchGenerationConfig(signal),
    staleTime: 60_000,
  });

  const close = () => {
    job.discard();
    onClose();
  };

  const body = () => {
    switch (phase.step) {
      case 'form':
      case 'starting':
        return (
          <BuilderFormView
            form={form}
            config={config}
            busy={phase.step === 'starting'}
            error={phase.step === 'form' ? phase.error : null}
            onSubmit={(request) => void job.start(request)}
            onCancel={close}
            topicRef={bindFocus}
          />
        );
      case 'running':
      case 'cancelling':
        return (
          <ProgressView
            job={phase.job}
            cancelling={phase.step === 'cancelling'}
            withQuizzes={form.getValues('withQuizzes')}
            onCancel={(running) => void job.cancel(running)}
            mainActionRef={bindFocus}
          />
        );
      case 'cancelled':
      case 'failed':
        return (
          <EndedView
            kind={phase.step}
            message={phase.message}
            onClose={close}
            onBackToForm={job.backToForm}
            mainActionRef={bindFocus}
          />
        );
      case 'succeeded':
        return (
          <SuccessView
            job={phase.job}
            courseId={phase.courseId}
            late={phase.late}
            summary={job.summary}
            summaryFailed={job.summaryFailed}
            onClose={close}
            onOpenEditor={job.openEditor}
            mainActionRef={bindFocus}
          />
        );
    }
  };

  const at = stepIndexOf(phase);
  return (
    <Dialog open title="Создать курс с ИИ" onClose={close}>
      <Steps aria-label="Шаги создания курса">
        {BUILDER_STEPS.map((title, index) => {
          const state = index < at ? 'done' : index === at ? 'current' : 'todo';
          return (
            <StepItem key={title} $state={state} aria-current={state === 'current' ? 'step' : undefined}>
              <StepNumber $state={state} aria-hidden="true">
                {state === 'done' ? '✓' : index + 1}
              </StepNumber>
              <span>
                <VisuallyHidden>{index + 1}. </VisuallyHidden>
                {title}
              </span>
            </StepItem>
          );
        })}
      </Steps>
      <Body>{body()}</Body>
    </Dialog>
  );
}

const Steps = styled.ol`
  display: grid;
  grid-template-columns: repeat(4, 1fr);
  gap: 8px;
  margin: 0 0 16px;
  padding: 0;
  list-style: none;
`;
const StepItem = styled.li<{ $state: StageMark }>`
  display: grid;
  justify-items: center;
  gap: 6px;
  text-align: center;
  font-size: 12px;
  line-height: 1.3;
  font-weight: ${({ $state }) => ($state === 'current' ? 600 : 400)};
  color: ${({ theme, $state }) => ($state === 'todo' ? theme.colors.muted : theme.colors.text)};
`;
const StepNumber = styled.span<{ $state: StageMark }>`
  display: inline-grid;
  place-items: center;
  width: 28px;
  height: 28px;
  border-radius: 50%;
  font-size: 13px;
  font-weight: 700;
  border: 2px solid ${({ theme, $state }) => ($state === 'todo' ? theme.colors.border : theme.colors.primary)};
  background: ${({ theme, $state }) => ($state === 'todo' ? 'transparent' : theme.colors.primary)};
  color: ${({ theme, $state }) => ($state === 'todo' ? theme.colors.muted : theme.colors.primaryText)};
`;
/**
 * One height for every step, so the dialog neither jumps nor moves between them; the form scrolls
 * inside it (the dialog leaves 48px of the viewport; its padding, title and steps take about 190px).
 */
const Body = styled.div`
  flex: none;
  height: min(560px, calc(100vh - 250px));
  min-height: 0;
  overflow-y: auto;
  margin: 0 -4px;
  padding: 0 4px 2px;
`;
