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
import { etagHeader, exportRoute, idParam, missing, noContent, pageAnswer, routesOf } from '../route';
import { TAGS } from '../tags';
import { contactSchema, organizationDetailSchema, organizationListItemSchema, organizationSchema, EXAMPLE_ID } from '../schemas';

const tag = TAGS.crm.name;
const noOrg = missing('Организации нет', CRM_MSG.orgNotFound);
const innTaken = { 409: { description: 'ИНН уже занят', example: CRM_MSG.innTaken } };
const noContact = missing('Контакта нет', CRM_MSG.contactNotFound);
const emailTaken = {
  409: { description: 'Контакт с таким email уже есть в организации', example: CRM_MSG.contactEmailTaken },
};
/** Every CRM route is open to the CRM roles; one about an organization or a contact takes its id and answers 404 without it. */
const crmRoute = routesOf(tag, { access: CRM_ROLES });
const organizationRoute = routesOf(tag, { access: CRM_ROLES, params: idParam('id', 'Идентификатор организации'), also: noOrg });
const contactRoute = routesOf(tag, { access: CRM_ROLES, params: idParam('id', 'Идентификатор контакта'), also: noContact });

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
    get: crmRoute({
      summary: 'Организации',
      query: organizationListQuerySchema,
      ok: pageAnswer('Страница организаций', organizationListItemSchema, 'OrganizationPage'),
    }),
    post: crmRoute({
      summary: 'Создать организацию',
      body: organizationCreateSchema,
      example: { name: 'ООО «Ромашка»', inn: '7707083893', kpp: '773601001', ogrn: '1027700132195', site: 'https://romashka.ru' },
      ok: { status: 201, description: 'Организация создана', schema: organizationListItemSchema },
      also: innTaken,
    }),
  },
  '/api/organizations/{id}': {
    get: organizationRoute({
      summary: 'Организация с контактами',
      ok: { status: 200, description: 'Организация', schema: organizationDetailSchema, headers: etagHeader },
    }),
    patch: organizationRoute({
      summary: 'Изменить организацию',
      body: organizationUpdateSchema,
      example: { status: 'INACTIVE', version: 3 },
      versioned: true,
      ok: { status: 200, description: 'Организация после изменения', schema: organizationSchema },
      also: innTaken,
    }),
    delete: organizationRoute({ summary: 'Удалить организацию (с её контактами)', ok: noContent('Удалена') }),
  },
  '/api/contacts': {
    post: crmRoute({
      summary: 'Добавить контакт организации',
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
    patch: contactRoute({
      summary: 'Изменить контакт',
      body: contactUpdateSchema,
      example: { phone: '+7 (999) 765-43-21', version: 3 },
      versioned: true,
      ok: { status: 200, description: 'Контакт после изменения', schema: contactSchema },
      also: emailTaken,
    }),
    delete: contactRoute({ summary: 'Удалить контакт', ok: noContent('Удалён') }),
  },
};
