import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  CRM_MSG,
  CRM_ROLES,
  contactCreateSchema,
  contactUpdateSchema,
  organizationCreateSchema,
  organizationExportQuerySchema,
  organizationListQuerySchema,
  organizationUpdateSchema,
} from '@portal/contracts';
import { etagHeader, exportRoute, idParam, missing, noContent, pageAnswer, route } from '../route';
import { TAGS } from '../tags';
import { contactSchema, organizationDetailSchema, organizationListItemSchema, organizationSchema, EXAMPLE_ID } from '../schemas';

const tag = TAGS.crm.name;
const orgId = idParam('id', 'Идентификатор организации');
const contactId = idParam('id', 'Идентификатор контакта');
const noOrg = missing('Организации нет', CRM_MSG.orgNotFound);
const emailTaken = {
  409: { description: 'Контакт с таким email уже есть в организации', example: CRM_MSG.contactEmailTaken },
};
const noContact = missing('Контакта нет', CRM_MSG.contactNotFound);

export const crmPaths: ZodOpenApiPathsObject = {
  '/api/organizations/export': {
    get: exportRoute(tag, {
      summary: 'Организации с контактами в CSV или XLSX',
      description: 'Те же поиск и фильтры, что у списка; по строке на контакт, организация без контактов — одной строкой.',
      access: CRM_ROLES,
      query: organizationExportQuerySchema,
      file: 'organizations',
    }),
  },
  '/api/organizations': {
    get: route(tag, {
      summary: 'Организации',
      access: CRM_ROLES,
      query: organizationListQuerySchema,
      ok: pageAnswer('Страница организаций', organizationListItemSchema, 'OrganizationPage'),
    }),
    post: route(tag, {
      summary: 'Создать организацию',
      access: CRM_ROLES,
      body: organizationCreateSchema,
      example: { name: 'ООО «Ромашка»', inn: '7707083893', kpp: '773601001', ogrn: '1027700132195', site: 'https://romashka.ru' },
      ok: { status: 201, description: 'Организация создана', schema: organizationListItemSchema },
      also: { 409: { description: 'ИНН уже занят', example: CRM_MSG.innTaken } },
    }),
  },
  '/api/organizations/{id}': {
    get: route(tag, {
      summary: 'Организация с контактами',
      access: CRM_ROLES,
      params: orgId,
      ok: { status: 200, description: 'Организация', schema: organizationDetailSchema, headers: etagHeader },
      also: noOrg,
    }),
    patch: route(tag, {
      summary: 'Изменить организацию',
      access: CRM_ROLES,
      params: orgId,
      body: organizationUpdateSchema,
      example: { status: 'INACTIVE' },
      versioned: true,
      ok: { status: 200, description: 'Организация после изменения', schema: organizationSchema },
      also: { ...noOrg, 409: { description: 'ИНН уже занят', example: CRM_MSG.innTaken } },
    }),
    delete: route(tag, {
      summary: 'Удалить организацию (с её контактами)',
      access: CRM_ROLES,
      params: orgId,
      ok: noContent('Удалена'),
      also: noOrg,
    }),
  },
  '/api/contacts': {
    post: route(tag, {
      summary: 'Добавить контакт организации',
      access: CRM_ROLES,
      body: contactCreateSchema,
      example: {
        fullName: 'Ольга Смирнова',
        email: 'olga@romashka.ru',
        phone: '+7 (999) 123-45-67',
        role: 'Менеджер по обучению',
        orgId: EXAMPLE_ID,
      },
      ok: { status: 201, description: 'Контакт создан', schema: contactSchema },
      also: { ...noOrg, ...emailTaken },
    }),
  },
  '/api/contacts/{id}': {
    patch: route(tag, {
      summary: 'Изменить контакт',
      access: CRM_ROLES,
      params: contactId,
      body: contactUpdateSchema,
      example: { phone: '+7 (999) 765-43-21' },
      versioned: true,
      ok: { status: 200, description: 'Контакт после изменения', schema: contactSchema },
      also: { ...noContact, ...emailTaken },
    }),
    delete: route(tag, {
      summary: 'Удалить контакт',
      access: CRM_ROLES,
      params: contactId,
      ok: noContent('Удалён'),
      also: noContact,
    }),
  },
};
