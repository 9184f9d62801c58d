import { useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { GENERATION_MSG, type Course, type GenerationJob } from '@portal/contracts';
import { Button, Dialog, ErrorBox, Label, Muted, ProgressBar, TextArea, useCurrentState } from '@portal/ui';
import { ApiError, errorMessage } from '@portal/web-core';
import { useGenerationJobPoll } from '@portal/web-core/query';
import type { GenerationBackend } from '../../backend/backend';
import {
  REGENERATE_TITLES,
  UNCHANGED_TEXT,
  phaseOfJob,
  previewOfProposal,
  progressOf,
  type RegenerateTarget,
  type RegenerationPhase,
} from '../../model/proposal';
import { ProposalPreview } from './ProposalPreview';

/** The contract's polling period: EventSource cannot send the bearer token, so the client asks. */

interface RegenerateDialogProps {
  api: GenerationBackend;
  target: RegenerateTarget;
  /** Saves the editor's pending edits so the server sees them; a message when that failed. */
  prepare: (target: RegenerateTarget) => Promise<string | null>;
  /** The proposal was applied; the course is the server's answer. */
  onAccepted: (target: RegenerateTarget, course: Course) => void;
  onClose: () => void;
}

/**
 * «Перегенерировать урок/модуль/квиз»: wishes → a job polled with its progress → a preview of the
 * proposal → «Принять» or «Отклонить». Nothing changes on the server before «Принять»; closing the
 * dialog cancels a running job or rejects a waiting proposal. Mounted only while open.
 */
export function RegenerateDialog({ api, target, prepare, onAccepted, onClose }: RegenerateDialogProps) {
  const [instructions, setInstructions] = useState('');
  // Handlers of calls in flight read the phase of now, not of the render that started them.
  const [phase, setPhase, phaseRef] = useCurrentState<RegenerationPhase>({ step: 'form', message: null });
  const alive = useRef(true);
  const focusRef = useRef<HTMLElement | null>(null);
  const hintId = useId();
  // Read while rendering, before the dialog opens and takes the focus.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));

  // The native dialog does not give focus back when it is removed while open: do it here.
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      if (opener?.isConnected) opener.focus();
    };
  }, [opener]);

  // Each step puts the focus on what matters in it, since the button pressed has just gone.
  useEffect(() => {
    focusRef.current?.focus();
  }, [phase.step]);

  const config = useQuery({
    queryKey: ['generation-config'],
    queryFn: () => api.config(),
    staleTime: 60_000,
  });

  const runningId = phase.step === 'running' ? phase.job.id : null;
  const poll = useGenerationJobPoll(runningId, api.getJob);

  useEffect(() => {
    const current = phaseRef.current;
    if (!poll.data || current.step !== 'running' || poll.data.id !== current.job.id) return;
    setPhase(phaseOfJob(poll.data));
  }, [poll.data, phaseRef, setPhase]);

  useEffect(() => {
    const current = phaseRef.current;
    if (!poll.error || current.step !== 'running') return;
    setPhase({ step: 'failed', message: errorMessage(poll.error), stale: false, notice: current.job.notice });
  }, [poll.error, phaseRef, setPhase]);

  /** A job nobody will look at again is dropped; its failure changes nothing for the author. */
  const discardQuietly = (job: GenerationJob) => void api.discard(job.id).catch(() => undefined);

  const start = async () => {
    setPhase({ step: 'preparing' });
    const refusal = await prepare(target);
    if (!alive.current) return;
    if (refusal) {
      setPhase({ step: 'failed', message: refusal, stale: false, notice: null });
      return;
    }
    setPhase({ step: 'starting' });
    try {
      const job = await api.regenerate({ target: target.kind, id: target.id, instructions: instructions.trim() });
      if (!alive.current) {
        discardQuietly(job);
        return;
      }
      setPhase(phaseOfJob(job));
    } catch (err) {
      if (alive.current) setPhase({ step: 'failed', message: errorMessage(err), stale: false, notice: null });
    }
  };

  const cancel = async (job: GenerationJob) => {
    setPhase({ step: 'cancelling', job });
    try {
      const answer = await api.discard(job.id);
      if (!alive.current) return;
      // Finished meanwhile: the DELETE rejected the proposal instead; either way nothing was kept.
      setPhase({
        step: 'cancelled',
        message: answer.status === 'cancelled' && answer.error ? answer.error : GENERATION_MSG.cancelled,
      });
    } catch (err) {
      if (alive.current) setPhase({ step: 'failed', message: errorMessage(err), stale: false, notice: job.notice });
    }
  };

  const reject = async (job: GenerationJob, proposal: NonNullable<GenerationJob['proposal']>) => {
    setPhase({ step: 'rejecting', job, proposal });
    try {
      await api.discard(job.id);
      if (alive.current) setPhase({ step: 'form', message: UNCHANGED_TEXT[target.kind] });
    } catch (err) {
      if (alive.current) setPhase({ step: 'failed', message: errorMessage(err), stale: false, notice: job.notice });
    }
  };

  const accept = async (job: GenerationJob, proposal: NonNullable<GenerationJob['proposal']>) => {
    setPhase({ step: 'accepting', job, proposal });
    try {
      const course = await api.accept(job.id);
      onAccepted(target, course);
    } catch (err) {
      const stale = err instanceof ApiError && err.status === 409;
      // A stale proposal can never be accepted: it is dropped, and a new one is one click away.
      if (stale) discardQuietly(job);
      if (alive.current) setPhase({ step: 'failed', message: errorMessage(err), stale, notice: job.notice });
    }
  };

  const close = () => {
    const current = phaseRef.current;
    // An accept under way finishes and is shown; it cannot be taken back halfway.
    if (current.step === 'accepting') return;
    if (current.step === 'running' || current.step === 'proposal') discardQuietly(current.job);
    onClose();
  };

  const setFocus = (el: HTMLElement | null) => {
    focusRef.current = el;
  };

  const body = () => {
    switch (phase.step) {
      case 'form':
      case 'preparing':
      case 'starting': {
        const waiting = phase.step !== 'form';
        return (
          <>
            {phase.step === 'form' && phase.message && <Status role="status">{phase.message}</Status>}
            {config.data && <Notice>{config.data.notice}</Notice>}
            <Label>
              Пожелания (необязательно)
              <TextArea
                ref={setFocus}
                rows={4}
                maxLength={1000}
                value={instructions}
                disabled={waiting}
                aria-describedby={hintId}
                placeholder="Например: больше практики, проще язык"
                onChange={(e) => setInstructions(e.target.value)}
              />
            </Label>
            <Muted id={hintId}>
              Остальной курс используется как контекст. Ничего не изменится, пока вы не примете предложение.
            </Muted>
            {phase.step === 'preparing' && <Muted role="status">Сохраняем последние изменения…</Muted>}
            <Actions>
              <Button type="button" $variant="ghost" onClick={close}>
                Отмена
              </Button>
              <Button type="button" disabled={waiting} onClick={() => void start()}>
                {waiting ? 'Запускаем…' : 'Сгенерировать'}
              </Button>
            </Actions>
          </>
        );
      }
      case 'running':
      case 'cancelling': {
        const { value, label } = progressOf(phase.job);
        return (
          <>
            <Notice>{phase.job.notice}</Notice>
            <ProgressBar name="Ход генерации" value={value} valueText={`${value}% — ${label}`} />
            <Stage aria-live="polite">
              {label} · {value}%
            </Stage>
            <Actions>
              <Button
                ref={setFocus}
                type="button"
                $variant="outline"
                disabled={phase.step === 'cancelling'}
                onClick={() => void cancel(phase.job)}
              >
                {phase.step === 'cancelling' ? 'Отменяем…' : 'Отменить'}
              </Button>
            </Actions>
          </>
        );
      }
      case 'proposal':
      case 'accepting':
      case 'rejecting': {
        const busy = phase.step !== 'proposal';
        return (
          <>
            <Notice>{phase.job.notice}</Notice>
            <PreviewBox ref={setFocus} tabIndex={-1} aria-label="Предложение">
              <ProposalPreview preview={previewOfProposal(phase.proposal)} />
            </PreviewBox>
            <Muted>
              Это предложение. Пока вы его не примете, ничего не изменится.
              {target.kind === 'module' &&
                ' При принятии уроки модуля заменятся уроками из предложения; уроки с квизами останутся в конце модуля.'}
            </Muted>
            <Actions>
              <Button type="button" $variant="outline" disabled={busy} onClick={() => void reject(phase.job, phase.proposal)}>
                {phase.step === 'rejecting' ? 'Отклоняем…' : 'Отклонить'}
              </Button>
              <Button type="button" disabled={busy} onClick={() => void accept(phase.job, phase.proposal)}>
                {phase.step === 'accepting' ? 'Применяем…' : 'Принять'}
              </Button>
            </Actions>
          </>
        );
      }
      case 'failed':
      case 'cancelled':
        return (
          <>
            {phase.step === 'failed' ? <ErrorBox>{phase.message}</ErrorBox> : <Status role="status">{phase.message}</Status>}
            {phase.step === 'failed' && phase.notice && <Notice>{phase.notice}</Notice>}
            <Actions>
              <Button ref={setFocus} type="button" onClick={() => void start()}>
                Сгенерировать заново
              </Button>
            </Actions>
          </>
        );
    }
  };

  return (
    <Dialog open title={`${REGENERATE_TITLES[target.kind]} «${target.title}»`} onClose={close} wide>
      <Content>{body()}</Content>
    </Dialog>
  );
}

const Content = styled.div`
  display: grid;
  gap: 12px;
  min-height: 0;
  p {
    margin: 0;
  }
`;
const Notice = styled.p`
  padding: 8px 12px;
  font-size: 14px;
  border-radius: ${({ theme }) => theme.radius};
  border-left: 4px solid ${({ theme }) => theme.colors.warning};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  color: ${({ theme }) => theme.colors.text};
`;
const Status = styled.p`
  font-weight: 600;
`;
const Stage = styled.p`
  font-size: 14px;
  color: ${({ theme }) => theme.colors.muted};
`;
const PreviewBox = styled.section`
  max-height: min(55vh, 520px);
  overflow: auto;
  padding: 12px 14px;
  border-radius: ${({ theme }) => theme.radius};
  border: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.bg};
  &:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;
const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  flex-wrap: wrap;
  gap: 8px;
`;
