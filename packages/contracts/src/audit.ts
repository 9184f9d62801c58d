import { z } from 'zod';
import './zod-ru';
import { pagingFields } from './paging';

export const AUDIT_ACTIONS = ['create', 'read', 'update', 'delete', 'login', 'logout'] as const;
export const AUDIT_ENTITIES = [
  'dashboard',
  'course',
  'user',
  'organization',
  'contact',
  'audit',
  'lesson',
  'quiz',
  'block',
  'progress',
  'profile',
  'consent',
  'application',
  'assignment',
  'certificate',
  'program',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

export const AUDIT_QUEUE = 'audit';

export const auditEventSchema = z.object({
  id: z.string().min(1).max(100),
  service: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  entity: z.enum(AUDIT_ENTITIES),
  entityId: z.string().nullable(),
  details: z.string().max(2000),
  actor: z.object({ id: z.string(), fullName: z.string(), email: z.string() }).nullable(),
  timestamp: z.string(),
  /** The request that made the change (its X-Request-Id), when a request made it. */
  requestId: z.string().max(100).optional(),
  /** The event's code in the contracts' table (auditEvents), and the data that code declares. */
  code: z.string().max(100).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditQuerySchema = z.object({
  // The spec's history reads up to 200 records at once (its page size is not shown).
  ...pagingFields(50, 200),
  entity: z.enum(AUDIT_ENTITIES).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  startDate: z.iso.date().optional(),
  endDate: z.iso.date().optional(),
  sort: z.enum(['newest', 'oldest']).default('newest'),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
