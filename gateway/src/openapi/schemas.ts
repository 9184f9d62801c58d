import { z } from 'zod';
import { ACTIVITY_SCOPES, DASHBOARD_FIGURES, DASHBOARD_SOURCES, type DashboardStats } from '@portal/contracts';
import { conforms, EXAMPLE_ID } from '@portal/service-kit';
import { auditRecordSchema } from '@portal/svc-audit/routes/api';

/**
 * The wire shapes of the answers. The contracts declare them as TypeScript interfaces; here each is
 * written once as a zod schema for the document, and `conforms` below fails the build when a schema
 * and its interface part ways. The answer-validation test checks real answers against them.
 */

/** The one shape of every refusal: a Russian message a person can act on, and the status again. */
export const errorSchema = z
  .object({
    message: z.string().meta({ description: 'Текст для человека, по-русски', example: 'Недостаточно прав для этого действия' }),
    statusCode: z.number().int().meta({ example: 403 }),
    field: z.string().optional().meta({ description: 'Поле запроса, к которому относится ошибка', example: 'email' }),
  })
  .meta({ id: 'Error', description: 'Ошибка: `{message, statusCode}`, сообщение по-русски' });

export { pageFields, pageOf } from '@portal/service-kit';

/* --------------------------------------------------------------- gateway */

/**
 * An object with every one of `keys`, each a `value`: written out as properties (a record keyed by an
 * enum leaves them undescribed, which lint and generated clients read as an open map).
 */
const keyedBy = <K extends string, V extends z.ZodType>(keys: readonly K[], value: V) =>
  z.object(Object.fromEntries(keys.map((key) => [key, value])) as Record<K, V>);

const figure = z.number().int().nullable();
const dayCount = z.object({ date: z.string().meta({ example: '2026-11-24' }), count: z.number().int() });
export const dashboardStatsSchema = conforms<DashboardStats>().as(
  z
    .object({
      totalCourses: figure,
      activeCourses: figure,
      totalStudents: figure,
      completedCourses: figure,
      organizations: figure,
      contacts: figure,
      change: keyedBy(DASHBOARD_FIGURES, z.string().nullable()),
      lowerBounds: z
        .array(z.enum(DASHBOARD_FIGURES))
        .meta({ description: 'Показатели, посчитанные до 10 000 и остановленные: их больше («10 000+»)' }),
      recentActivity: z.array(auditRecordSchema),
      activityByDay: z.array(dayCount),
      activityScope: z.enum(ACTIVITY_SCOPES).meta({
        description: 'all — всё (ADMIN), courses — курсы куратора и их учащиеся, own — только свои действия',
      }),
      partial: z.boolean(),
      unavailable: z.array(z.enum(DASHBOARD_SOURCES)),
    })
    .meta({ id: 'DashboardStats' }),
);

const serviceState = z.enum(['ready', 'not ready', 'down']);
export const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    services: keyedBy(DASHBOARD_SOURCES, serviceState),
    replicas: z.record(z.string(), z.record(z.string(), serviceState)).optional(),
  })
  .meta({ id: 'Health' });

export const probeSchema = z.object({ status: z.literal('ok'), service: z.literal('gateway') }).meta({ id: 'Probe' });

export { EXAMPLE_ID };
