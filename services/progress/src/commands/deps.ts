import type { AuditPublisher, ClaimRedis, Logger, Mailer } from '@portal/service-kit';
import type { CertificateIssuer } from '../certificates/pdf';
import type { ContentClient } from '../clients/content';
import type { ProgressModels } from '../models';

/** What the commands of this service work with. */
export interface ProgressDeps {
  models: ProgressModels;
  content: ContentClient;
  audit: AuditPublisher;
  logger: Logger;
  mailer: Mailer;
  /** The absolute link of a portal path (PUBLIC_URL), for mails. */
  portalLink: (path: string) => string;
  /** Who issues and signs certificates (settings). */
  certificateIssuer: CertificateIssuer;
  /** Where the quiz path's claims (an attempt's close, its saves) are held: Redis (docs/decisions/101). */
  claims: ClaimRedis;
}
