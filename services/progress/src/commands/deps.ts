import type { AuditPublisher, Logger } from '@portal/service-kit';
import type { ContentClient } from '../clients/content';
import type { ProgressModels } from '../models';

/** What the commands of this service work with. */
export interface ProgressDeps {
  models: ProgressModels;
  content: ContentClient;
  audit: AuditPublisher;
  logger: Logger;
}
