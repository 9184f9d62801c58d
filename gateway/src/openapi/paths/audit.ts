import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ROLES, STAFF_ROLES, auditListQuerySchema } from '@portal/contracts';
import { route } from '../route';
import { TAGS } from '../tags';
import { auditPageSchema } from '../schemas';

const tag = TAGS.audit.name;

export const auditPaths: ZodOpenApiPathsObject = {
  '/api/audit': {
    get: route(tag, {
      summary: 'Журнал действий всех пользователей',
      access: STAFF_ROLES,
      query: auditListQuerySchema,
      ok: { status: 200, description: 'Страница записей', schema: auditPageSchema },
    }),
  },
  '/api/audit/my': {
    get: route(tag, {
      summary: 'Мои действия',
      access: ROLES,
      query: auditListQuerySchema,
      ok: { status: 200, description: 'Страница записей', schema: auditPageSchema },
      without: [403],
    }),
  },
};
