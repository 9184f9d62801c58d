import { CRM_MSG, contactCreateSchema, contactUpdateSchema } from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { manageCrm } from '../../policies/crm';
import { EXAMPLE_ID, contactSchema, idParams } from '../schema';

const params = idParams('Идентификатор контакта');
const emailTaken = { description: 'Контакт с таким email уже есть в организации', example: CRM_MSG.contactEmailTaken };

export const createContact = defineRoute({
  method: 'POST',
  path: '/api/contacts',
  operationId: 'createContact',
  summary: 'Добавить контакт организации',
  access: manageCrm,
  body: contactCreateSchema,
  example: {
    fullName: 'Ольга Смирнова',
    email: 'olga@romashka.ru',
    phone: '+7 (999) 123-45-67',
    role: 'Менеджер по обучению',
    orgId: EXAMPLE_ID,
  },
  ok: { status: 201, description: 'Контакт создан', schema: contactSchema },
  also: { 404: { description: 'Организации нет', example: CRM_MSG.orgNotFound }, 409: emailTaken },
});

export const updateContact = defineRoute({
  method: 'PATCH',
  path: '/api/contacts/:id',
  operationId: 'updateContact',
  summary: 'Изменить контакт',
  access: manageCrm,
  params,
  body: contactUpdateSchema,
  example: { phone: '+7 (999) 765-43-21', version: 3 },
  versioned: true,
  ok: { status: 200, description: 'Контакт после изменения', schema: contactSchema },
  also: { 404: { description: 'Контакта нет', example: CRM_MSG.contactNotFound }, 409: emailTaken },
});

export const deleteContact = defineRoute({
  method: 'DELETE',
  path: '/api/contacts/:id',
  operationId: 'deleteContact',
  summary: 'Удалить контакт',
  access: manageCrm,
  params,
  ok: { status: 204, description: 'Удалён' },
  also: { 404: { description: 'Контакта нет', example: CRM_MSG.contactNotFound } },
});
