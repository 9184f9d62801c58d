import type { AuditInput, AuditPublisher, Principal } from '@portal/service-kit';
import type { ContentModels } from '../models';

/** What a command needs: the data, the audit trail and who is acting. */
export interface CommandDeps {
  models: ContentModels;
  audit: AuditPublisher;
  actor: Principal;
}

/** The one place a content mutation is written to the audit trail. */
export const recordAudit = (deps: CommandDeps, event: Omit<AuditInput, 'actor'>): void => {
  deps.audit.publish({ ...event, actor: deps.actor });
};
