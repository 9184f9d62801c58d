import { z } from 'zod';
import { auditEvent, DELETED, EXPORTED, type AuditEventDefinition } from './define';

/** The audit trail's own events: its export, and the retention sweep. */
export const TRAIL_EVENTS = {
  'audit.exported': auditEvent({
    action: 'read',
    entity: 'audit',
    data: z.object({ file: z.string() }),
    details: ({ file }) => `Выгрузка журнала действий в ${file}`,
    phrase: (_, said) => `${said(EXPORTED)} журнал действий`,
  }),
  'audit.purged': auditEvent({
    action: 'delete',
    entity: 'audit',
    data: z.object({ days: z.number().int(), removed: z.number().int() }),
    details: ({ days, removed }) => `Удалены записи журнала старше ${days} дн.: ${removed}`,
    phrase: ({ days, removed }, said) => `${said(DELETED)} записи журнала старше ${days} дн.: ${removed}`,
  }),
} satisfies Record<string, AuditEventDefinition>;
