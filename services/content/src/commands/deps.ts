import type { AuditEventInput, AuditPublisher, Principal } from '@portal/service-kit';
import type { ContentModels } from '../models';

/** What a command needs: the data, the audit trail and who is acting. */
export interface CommandDeps {
  models: ContentModels;
  audit: AuditPublisher;
  actor: Principal;
}

/** The one place a content mutation is written to the audit trail. */
export const recordAudit = (deps: CommandDeps, event: AuditEventInput): void => {
  deps.audit.publish({ ...event, actor: deps.actor });
};

/** The fields an edit changed, each before and after: what its audit record tells of the edit. */
export function changesOf<T, K extends keyof T>(
  before: T,
  after: T,
  fields: readonly K[],
): { [F in K]?: { from: T[F]; to: T[F] } } {
  const changes: { [F in K]?: { from: T[F]; to: T[F] } } = {};
  for (const field of fields) if (before[field] !== after[field]) changes[field] = { from: before[field], to: after[field] };
  return changes;
}
