/**
 * Who an assignment is for and the statuses of a training assignment, with their words, without zod (assignments.ts has the wire
 * schemas): a learner's study page shows them and loads no schema library.
 */

export const ASSIGNMENT_STATUSES = ['not_started', 'in_progress', 'completed', 'overdue'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

export const ASSIGNMENT_STATUS_LABELS: Record<AssignmentStatus, string> = {
  not_started: 'не начат',
  in_progress: 'в процессе',
  completed: 'завершён',
  overdue: 'просрочен',
};

export const AUDIENCE_KINDS = ['users', 'department', 'role', 'all'] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];

export const AUDIENCE_LABELS: Record<AudienceKind, string> = {
  users: 'Выбранные сотрудники',
  department: 'Подразделение',
  role: 'Роль',
  all: 'Все обучающиеся',
};
