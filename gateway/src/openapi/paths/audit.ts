import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ROLES, STAFF_ROLES, auditExportQuerySchema, auditListQuerySchema } from '@portal/contracts';
import { exportRoute, route } from '../route';
import { TAGS } from '../tags';
import { auditPageSchema } from '../schemas';

const tag = TAGS.audit.name;

export const auditPaths: ZodOpenApiPathsObject = {
  '/api/audit': {
    get: route(tag, {
      summary: 'Журнал действий',
      description:
        'Администратор видит действия всех пользователей. Куратор — свои действия и записи о своих курсах, их модулях, уроках и тестах ' +
        '(в том числе действия учащихся в них), без адресов почты других людей и без поиска по ним; состав курсов шлюз узнаёт у сервиса курсов. ' +
        'Постраничный вывод и фильтры у обоих одинаковые.',
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
  '/api/audit/export': {
    get: exportRoute(tag, {
      summary: 'История действий в CSV или XLSX',
      description:
        'Те же фильтры, что у истории, все строки; даты — в часовом поясе `tz`. ' +
        'Куратор получает те же строки, что видит в истории: свои действия и записи о своих курсах, с адресом почты только у своих действий.',
      access: STAFF_ROLES,
      query: auditExportQuerySchema,
      file: 'audit_history',
    }),
  },
  '/api/audit/my/export': {
    get: exportRoute(tag, {
      summary: 'Мои действия в CSV или XLSX',
      description: 'Только свои действия, с теми же фильтрами.',
      access: ROLES,
      query: auditExportQuerySchema,
      file: 'audit_history',
      without: [403],
    }),
  },
};
