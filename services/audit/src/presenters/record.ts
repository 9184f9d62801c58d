import type { AuditRecord } from '@portal/contracts';
import type { AuditRecordDoc } from '../models/record';

/** The spec's audit record: id, action, entity, details, user (fullName, email), timestamp. */
export const presentRecord = (r: AuditRecordDoc & { _id: unknown }): AuditRecord => ({
  id: r.eventId,
  action: r.action,
  entity: r.entity,
  entityId: r.entityId,
  details: r.details,
  user: r.actor ? { id: r.actor.id, fullName: r.actor.fullName, email: r.actor.email } : null,
  timestamp: new Date(r.timestamp).toISOString(),
});
