import { z } from 'zod';
import './zod-ru';
import { auditQuerySchema } from './audit';
import { DASHBOARD_MSG, timeZoneSchema } from './dashboard';
import { EXPORT_FORMATS, EXPORT_MSG } from './exports';

/** `format` and `tz` of every export query; CSV when no format is named (the first export was CSV only). */
export const exportFields = {
  format: z.enum(EXPORT_FORMATS, { error: EXPORT_MSG.formatInvalid }).default('csv'),
  tz: timeZoneSchema.default('UTC'),
};

/** GET /api/audit/export and /api/audit/my/export: the history's filters, every row, CSV or XLSX. */
export const auditExportQuerySchema = auditQuerySchema
  .omit({ page: true, limit: true })
  .extend({
    search: z.string().trim().max(200).optional(),
    ...exportFields,
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
    message: DASHBOARD_MSG.endBeforeStart,
    path: ['endDate'],
  });
export type AuditExportQuery = z.infer<typeof auditExportQuerySchema>;
