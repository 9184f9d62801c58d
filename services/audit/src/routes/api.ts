/**
 * The audit service's public API as declarations: what the gateway documents and the security matrix
 * checks. Data only (no store, no router), so either can import it without running the service.
 */
import type { RouteDeclaration } from '@portal/service-kit';
import { exportAuditEvents, exportMyAuditEvents, listAuditEvents, listMyAuditEvents } from './audit/declarations';

export { auditPageSchema, auditRecordSchema } from './audit/schema';

export const auditApi: readonly RouteDeclaration[] = [listAuditEvents, listMyAuditEvents, exportAuditEvents, exportMyAuditEvents];
