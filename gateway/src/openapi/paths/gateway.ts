import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ROLES, dashboardStatsQuerySchema } from '@portal/contracts';
import { route } from '../route';
import { TAGS } from '../tags';
import { dashboardStatsSchema, healthSchema, probeSchema } from '../schemas';

const tag = TAGS.gateway.name;

/** The gateway's own routes: the dashboard it composes, its health, and this document. */
export const gatewayPaths: ZodOpenApiPathsObject = {
  '/api/dashboard/stats': {
    get: route(tag, {
      summary: 'Показатели панели',
      description:
        'Собирается шлюзом из всех сервисов параллельно, с ограничением времени: не ответивший сервис даёт null и `partial: true`. ' +
        'Каждая роль видит свои показатели.',
      access: ROLES,
      query: dashboardStatsQuerySchema,
      ok: { status: 200, description: 'Показатели', schema: dashboardStatsSchema },
      without: [403],
    }),
  },
  '/api/health': {
    get: route(tag, {
      summary: 'Готовность сервисов',
      access: 'public',
      ok: { status: 200, description: 'Все сервисы готовы', schema: healthSchema },
      alsoOk: { 503: { description: 'Какой-то сервис не готов', schema: healthSchema } },
    }),
  },
  '/healthz': {
    get: route(tag, {
      summary: 'Шлюз жив',
      access: 'public',
      ok: { status: 200, description: 'Жив', schema: probeSchema },
    }),
  },
  '/readyz': {
    get: route(tag, {
      summary: 'Шлюз готов принимать запросы',
      access: 'public',
      ok: { status: 200, description: 'Готов', schema: probeSchema },
    }),
  },
  '/api/openapi.json': {
    get: route(tag, {
      summary: 'Этот документ (OpenAPI 3.1)',
      access: 'public',
      ok: { status: 200, description: 'Документ', schema: z.record(z.string(), z.unknown()) },
    }),
  },
  '/api/docs': {
    get: route(tag, {
      summary: 'Этот документ в читаемом виде (Swagger UI)',
      access: 'public',
      ok: { status: 200, description: 'Страница', mediaType: 'text/html' },
    }),
  },
};
