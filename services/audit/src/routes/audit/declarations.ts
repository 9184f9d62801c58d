import { auditExportQuerySchema, auditListQuerySchema } from '@portal/contracts';
import { defineExportRoute, defineRoute } from '@portal/service-kit';
import { readOwnTrail, readTrail } from '../../policies/trail';
import { auditPageSchema } from './schema';

/** The history of actions: the whole trail for ADMIN, a curator's part of it. */
export const listAuditEvents = defineRoute({
  method: 'GET',
  path: '/api/audit',
  operationId: 'listAuditEvents',
  summary: 'Журнал действий',
  description:
    'Администратор видит действия всех пользователей. Куратор — свои действия и записи о своих курсах, их модулях, уроках и тестах ' +
    '(в том числе действия учащихся в них), без адресов почты других людей и без поиска по ним; состав курсов шлюз узнаёт у сервиса курсов. ' +
    'Постраничный вывод и фильтры у обоих одинаковые.',
  access: readTrail,
  query: auditListQuerySchema,
  ok: { status: 200, description: 'Страница записей', schema: auditPageSchema },
});

export const exportAuditEvents = defineExportRoute({
  method: 'GET',
  path: '/api/audit/export',
  operationId: 'exportAuditEvents',
  summary: 'История действий в CSV или XLSX',
  description:
    'Те же фильтры, что у истории, все строки; даты — в часовом поясе `tz`. ' +
    'Куратор получает те же строки, что видит в истории: свои действия и записи о своих курсах, с адресом почты только у своих действий.',
  access: readTrail,
  query: auditExportQuerySchema,
  file: 'audit_history',
  audit: ['audit.exported'],
});

/** Anyone's own actions and nobody else's: the activity history of a learner's dashboard. */
export const listMyAuditEvents = defineRoute({
  method: 'GET',
  path: '/api/audit/my',
  operationId: 'listMyAuditEvents',
  summary: 'Мои действия',
  access: readOwnTrail,
  query: auditListQuerySchema,
  ok: { status: 200, description: 'Страница записей', schema: auditPageSchema },
  without: [403],
});

export const exportMyAuditEvents = defineExportRoute({
  method: 'GET',
  path: '/api/audit/my/export',
  operationId: 'exportMyAuditEvents',
  summary: 'Мои действия в CSV или XLSX',
  description: 'Только свои действия, с теми же фильтрами.',
  access: readOwnTrail,
  query: auditExportQuerySchema,
  file: 'audit_history',
  without: [403],
  audit: ['audit.exported'],
});
