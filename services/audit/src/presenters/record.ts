import { auditDetailsOf, type AuditRecord } from '@portal/contracts';
import type { AuditRecordDoc } from '../models/record';

/**
 * The spec's audit record: id, action, entity, details, user (fullName, email), timestamp; the details
 * are read from the record's code and data in today's wording, and its code and data go with it.
 */
export const presentRecord = (r: AuditRecordDoc & { _id: unknown }): AuditRecord => ({
  id: r.eventId,
  action: r.action,
  entity: r.entity,
  entityId: r.entityId,
  details: auditDetailsOf(r),
  ...(r.code ? { code: r.code, data: r.data ?? {} } : {}),
  user: r.actor ? { id: r.actor.id, fullName: r.actor.fullName, email: r.actor.email } : null,
  timestamp: new Date(r.timestamp).toISOString(),
});
