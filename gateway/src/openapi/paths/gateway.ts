import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ROLES, dashboardStatsQuerySchema } from '@portal/contracts';
import { route, routesOf, withOperationIds } from '../route';
import { TAGS } from '../tags';
import { dashboardStatsSchema, healthSchema, probeSchema } from '../schemas';

const tag = TAGS.gateway.name;
/** Probes and this document: open to anyone, without a token. */
const publicRoute = routesOf(tag, { access: 'public' });

/** The gateway's own routes: the dashboard it composes, its health, and this document. */
const gatewayOperations: ZodOpenApiPathsObject = {
  '/api/dashboard/stats': {
    get: route(tag, {
      summary: 'Показатели панели',
      description:
        'Собирается шлюзом из всех сервисов параллельно, с ограничением времени: не ответивший сервис даёт null и `partial: true`. ' +
        'Каждая роль видит свои показатели; сеанс кандидата по ссылке получает 403. Лента действий куратора — только его курсы и их учащиеся.',
      access: ROLES,
      query: dashboardStatsQuerySchema,
      ok: { status: 200, description: 'Показатели', schema: dashboardStatsSchema },
    }),
  },
  '/api/health': {
    get: publicRoute({
      summary: 'Готовность сервисов',
      ok: { status: 200, description: 'Все сервисы готовы', schema: healthSchema },
      alsoOk: { 503: { description: 'Какой-то сервис не готов', schema: healthSchema } },
    }),
  },
  '/healthz': {
    get: publicRoute({ summary: 'Шлюз жив', ok: { status: 200, description: 'Жив', schema: probeSchema } }),
  },
  '/readyz': {
    get: publicRoute({ summary: 'Шлюз готов принимать запросы', ok: { status: 200, description: 'Готов', schema: probeSchema } }),
  },
  '/api/openapi.json': {
    get: publicRoute({
      summary: 'Этот документ (OpenAPI 3.1)',
      ok: { status: 200, description: 'Документ', schema: z.record(z.string(), z.unknown()) },
    }),
  },
  '/api/docs': {
    get: publicRoute({
      summary: 'Этот документ в читаемом виде (Swagger UI)',
      ok: { status: 200, description: 'Страница', mediaType: 'text/html' },
    }),
  },
};

export const gatewayPaths = withOperationIds(gatewayOperations, {
  'GET /api/dashboard/stats': 'getDashboardStats',
  'GET /api/health': 'getHealth',
  'GET /healthz': 'getLiveness',
  'GET /readyz': 'getReadiness',
  'GET /api/openapi.json': 'getOpenApiDocument',
  'GET /api/docs': 'getApiDocsPage',
});
