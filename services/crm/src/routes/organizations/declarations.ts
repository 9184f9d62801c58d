import {
  CRM_MSG,
  organizationCreateSchema,
  organizationExportQuerySchema,
  organizationListQuerySchema,
  organizationUpdateSchema,
} from '@portal/contracts';
import { defineExportRoute, defineRoute } from '@portal/service-kit';
import { z } from 'zod';
import { manageCrm } from '../../policies/crm';
import {
  idParams,
  organizationDetailSchema,
  organizationListItemSchema,
  organizationPageSchema,
  organizationSchema,
} from '../schema';

const params = idParams('Идентификатор организации');
const noOrganization = { description: 'Организации нет', example: CRM_MSG.orgNotFound };
const innTaken = { description: 'ИНН уже занят', example: CRM_MSG.innTaken };

export const listOrganizations = defineRoute({
  method: 'GET',
  path: '/api/organizations',
  operationId: 'listOrganizations',
  summary: 'Организации',
  access: manageCrm,
  query: organizationListQuerySchema,
  ok: { status: 200, description: 'Страница организаций', schema: organizationPageSchema },
});

/** Before `/:id`, which would otherwise take `export` for an id. */
export const exportOrganizations = defineExportRoute({
  method: 'GET',
  path: '/api/organizations/export',
  operationId: 'exportOrganizations',
  summary: 'Организации с контактами в CSV или XLSX',
  description: 'Те же поиск и фильтры, что у списка; по строке на контакт, организация без контактов — одной строкой.',
  access: manageCrm,
  query: organizationExportQuerySchema,
  file: 'organizations',
  audit: ['organizations.exported'],
});

export const createOrganization = defineRoute({
  method: 'POST',
  path: '/api/organizations',
  operationId: 'createOrganization',
  summary: 'Создать организацию',
  access: manageCrm,
  body: organizationCreateSchema,
  example: { name: 'ООО «Ромашка»', inn: '7707083893', kpp: '773601001', ogrn: '1027700132195', site: 'https://romashka.ru' },
  ok: { status: 201, description: 'Организация создана', schema: organizationListItemSchema },
  also: { 409: innTaken },
});

/** The card: its contacts' personal data are read, so each read is recorded (152-FZ). */
export const getOrganization = defineRoute({
  method: 'GET',
  path: '/api/organizations/:id',
  operationId: 'getOrganization',
  summary: 'Организация с контактами',
  access: manageCrm,
  params,
  ok: {
    status: 200,
    description: 'Организация',
    schema: organizationDetailSchema,
    headers: z.object({
      ETag: z.string().meta({ description: 'Версия записи для If-Match / If-None-Match', example: '"3"' }),
    }),
  },
  also: { 404: noOrganization },
  audit: ['organization.contactsViewed'],
});

export const updateOrganization = defineRoute({
  method: 'PATCH',
  path: '/api/organizations/:id',
  operationId: 'updateOrganization',
  summary: 'Изменить организацию',
  access: manageCrm,
  params,
  body: organizationUpdateSchema,
  example: { status: 'INACTIVE', version: 3 },
  versioned: true,
  ok: { status: 200, description: 'Организация после изменения', schema: organizationSchema },
  also: { 404: noOrganization, 409: innTaken },
});

export const deleteOrganization = defineRoute({
  method: 'DELETE',
  path: '/api/organizations/:id',
  operationId: 'deleteOrganization',
  summary: 'Удалить организацию (с её контактами)',
  access: manageCrm,
  params,
  ok: { status: 204, description: 'Удалена' },
  also: { 404: noOrganization },
});
