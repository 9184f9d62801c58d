import { PROGRAM_PERSON_STATUS_LABELS, STAGE_STATUS_LABELS, type ProgramPersonStatus, type StageStatus } from '@portal/contracts';
import { Badge, StrokeIcon } from '@portal/ui';
import { stageStatusTone } from './format';

/** A padlock (the kit's stroke icons have none): a stage closed until the previous one is complete. */
const LockIcon = () => (
  <StrokeIcon size={12}>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </StrokeIcon>
);

/** A stage's status: «пройден» green, «в процессе», «закрыт» grey, «просрочен» red. */
export function StageStatusBadge({ status }: { status: StageStatus }) {
  return (
    <Badge $tone={stageStatusTone(status)} data-status={status}>
      {status === 'locked' && <LockIcon />}
      {STAGE_STATUS_LABELS[status]}
    </Badge>
  );
}

/** A person's status in the whole program. */
export function ProgramStatusBadge({ status }: { status: ProgramPersonStatus }) {
  return (
    <Badge $tone={stageStatusTone(status)} data-status={status}>
      {PROGRAM_PERSON_STATUS_LABELS[status]}
    </Badge>
  );
}
