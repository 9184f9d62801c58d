import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_ENTITIES, type AuditPage } from '@portal/contracts';
import { conforms } from '@portal/service-kit';

/** The audit service's answers on the wire (the gateway's dashboard shows the same records). */
export const auditRecordSchema = z
  .object({
    id: z.string().meta({ example: '6743a1f0c2b5e80012ab34cd' }),
    action: z.enum(AUDIT_ACTIONS),
    entity: z.enum(AUDIT_ENTITIES),
    entityId: z.string().nullable(),
    details: z.string().meta({ example: 'Вход в систему' }),
    user: z.object({ id: z.string(), fullName: z.string(), email: z.string() }).nullable(),
    timestamp: z.string().meta({ format: 'date-time', example: '2026-11-24T09:30:00.000Z' }),
    code: z.string().optional().meta({
      description: 'The kind of event (auditEvents in contracts); absent on old records kept as text',
      example: 'user.signedIn',
    }),
    data: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'What the event is about, as its code declares (ids, names, fields before and after)' }),
  })
  .meta({ id: 'AuditRecord' });

export const auditPageSchema = conforms<AuditPage>().as(
  z
    .object({
      data: z.array(auditRecordSchema),
      total: z.number().int().meta({ description: 'Records the filter selects; a lower bound when totalExact is false' }),
      totalExact: z.boolean().meta({
        description:
          "False when counting stopped at 500 records (a search, a person's own history, no period), after 31 days of a searched period, or when some days of a period are not summarised yet",
      }),
      page: z.number().int(),
      limit: z.number().int(),
    })
    .meta({ id: 'AuditPage' }),
);
