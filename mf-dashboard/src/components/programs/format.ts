import {
  AUDIENCE_LABELS,
  ROLE_LABELS,
  STAGE_STATUS_LABELS,
  ruCount,
  ruForm,
  type Audience,
  type ProgramPersonStatus,
  type StageStatus,
} from '@portal/contracts';
import type { BadgeTone } from '@portal/ui';
import { daysText } from '@portal/web-core/assignments';

/** Who a program is assigned to: «Подразделение «Склад»», «Сотрудники: 3», «Все». */
export const audienceLabel = (audience: Audience): string =>
  audience.kind === 'department'
    ? `${AUDIENCE_LABELS.department} «${audience.department}»`
    : audience.kind === 'role'
      ? `${AUDIENCE_LABELS.role} «${ROLE_LABELS[audience.role]}»`
      : audience.kind === 'users'
        ? `${AUDIENCE_LABELS.users}: ${audience.userIds.length}`
        : AUDIENCE_LABELS.all;

export const stageStatusTone = (status: StageStatus | ProgramPersonStatus): BadgeTone =>
  status === 'completed' ? 'success' : status === 'overdue' ? 'danger' : status === 'locked' ? 'muted' : 'primary';

export const stageStatusLabel = (status: StageStatus): string => STAGE_STATUS_LABELS[status];

/** «осталось 5 дней», «последний день», «просрочен на 2 дня»; '' without a deadline. */
export function stageDaysLeftText(daysLeft: number | null): string {
  if (daysLeft === null) return '';
  if (daysLeft < 0) return `просрочен на ${daysText(-daysLeft)}`;
  if (daysLeft === 0) return 'последний день';
  return `${ruForm(daysLeft, { one: 'остался', few: 'осталось', many: 'осталось' })} ${daysText(daysLeft)}`;
}

/** «2 этапа», «5 курсов». */
export const stageCount = (n: number): string => ruCount(n, { one: 'этап', few: 'этапа', many: 'этапов' });
export const courseCount = (n: number): string => ruCount(n, { one: 'курс', few: 'курса', many: 'курсов' });
