import { z } from 'zod';
import {
  ORG_STATUSES,
  type Contact,
  type Organization,
  type OrganizationDetail,
  type OrganizationListItem,
  type Page,
} from '@portal/contracts';
import { conforms, EXAMPLE_ID, isoDateTime, pageOf } from '@portal/service-kit';

/** What an id of a record looks like, for examples. */
const id = z.string().meta({ example: EXAMPLE_ID });
/** A record written with optimistic concurrency: its version and when it was made and last changed. */
const versionedRecord = { version: z.number().int(), createdAt: isoDateTime, updatedAt: isoDateTime };

/** Path parameters: the id of an organization or a contact. */
export const idParams = (description: string) => z.object({ id: z.string().meta({ description, example: EXAMPLE_ID }) });

/** The CRM's answers on the wire. */
const organizationShape = {
  id,
  name: z.string().meta({ example: 'ООО «Ромашка»' }),
  inn: z.string().meta({
    example: '7707083893',
    description: 'ИНН: 10 digits (or 12 for an individual entrepreneur) with valid check digits',
  }),
  kpp: z.string().nullable().meta({ example: '773601001' }),
  ogrn: z
    .string()
    .nullable()
    .meta({ example: '1027700132195', description: 'ОГРН (13 digits) or ОГРНИП (15), with a valid check digit' }),
  site: z.string().nullable().meta({ example: 'https://romashka.ru' }),
  status: z.enum(ORG_STATUSES),
  ...versionedRecord,
};
export const organizationSchema = conforms<Organization>().as(z.object(organizationShape).meta({ id: 'Organization' }));

export const contactSchema = conforms<Contact>().as(
  z
    .object({
      id,
      orgId: z.string(),
      fullName: z.string().meta({ example: 'Ольга Смирнова' }),
      email: z.string().meta({ example: 'olga@romashka.ru' }),
      phone: z.string().nullable().meta({ example: '+7 (999) 123-45-67' }),
      role: z.string().nullable().meta({ description: 'Должность', example: 'Менеджер по обучению' }),
      ...versionedRecord,
    })
    .meta({ id: 'Contact' }),
);

const contactCount = z.object({ contacts: z.number().int() });
export const organizationListItemSchema = conforms<OrganizationListItem>().as(
  z.object({ ...organizationShape, _count: contactCount }).meta({ id: 'OrganizationListItem' }),
);
export const organizationDetailSchema = conforms<OrganizationDetail>().as(
  z.object({ ...organizationShape, contacts: z.array(contactSchema), _count: contactCount }).meta({ id: 'OrganizationDetail' }),
);

export const organizationPageSchema = conforms<Page<OrganizationListItem>>().as(
  pageOf(organizationListItemSchema, 'OrganizationPage'),
);

export { EXAMPLE_ID };
