import { z } from 'zod';
import { ORG_STATUS_LABELS, ORG_STATUSES } from '../crm';
import { ADDED, auditEvent, CHANGED, CREATED, DELETED, EXPORTED, quoted, VIEWED, type AuditEventDefinition } from './define';

/** An organization as the trail names it: «"ООО Вектор" (ИНН 7701234567)». */
const organization = z.object({ name: z.string(), inn: z.string() });
const named = ({ name, inn }: z.infer<typeof organization>) => `"${name}" (ИНН ${inn})`;

/** A field that changed; a field emptied is `to: null`. */
const change = z.object({ from: z.string().nullable(), to: z.string().nullable() });
const orgChanges = z.object({
  name: change.optional(),
  inn: change.optional(),
  kpp: change.optional(),
  ogrn: change.optional(),
  site: change.optional(),
  status: z.object({ from: z.enum(ORG_STATUSES), to: z.enum(ORG_STATUSES) }).optional(),
});

/** «название «А» → «Б», статус Активна → Неактивна», in the order of the card's fields. */
const toldChanges = (c: z.infer<typeof orgChanges>): string[] =>
  [
    c.name && `название «${c.name.from}» → «${c.name.to}»`,
    c.inn && `ИНН ${c.inn.from} → ${c.inn.to}`,
    c.kpp && `КПП ${c.kpp.to ?? 'удалён'}`,
    c.ogrn && `ОГРН ${c.ogrn.to ?? 'удалён'}`,
    c.site && `сайт ${c.site.to ?? 'удалён'}`,
    c.status && `статус ${ORG_STATUS_LABELS[c.status.from]} → ${ORG_STATUS_LABELS[c.status.to]}`,
  ].filter((note): note is string => Boolean(note));

const contact = z.object({ fullName: z.string(), email: z.string() });

/** The CRM's events: organizations, their contacts, and reads of both. */
export const CRM_EVENTS = {
  'organization.created': auditEvent({
    action: 'create',
    entity: 'organization',
    data: organization,
    details: (o) => `Создана организация ${named(o)}`,
    phrase: (o, said) => `${said(CREATED)} организацию${quoted(o.name)}`,
  }),
  'organization.updated': auditEvent({
    action: 'update',
    entity: 'organization',
    data: organization.extend({ changes: orgChanges }),
    details: (o) => {
      const notes = toldChanges(o.changes);
      return `Изменена организация ${named(o)}${notes.length ? `: ${notes.join(', ')}` : ''}`;
    },
    phrase: (o, said) => `${said(CHANGED)} организацию${quoted(o.name)}`,
  }),
  'organization.deleted': auditEvent({
    action: 'delete',
    entity: 'organization',
    data: organization.extend({ contacts: z.number().int() }),
    details: (o) => `Удалена организация ${named(o)} вместе с контактами: ${o.contacts}`,
    phrase: (o, said) => `${said(DELETED)} организацию${quoted(o.name)}`,
  }),
  'organizations.exported': auditEvent({
    action: 'read',
    entity: 'organization',
    data: z.object({ file: z.string() }),
    details: ({ file }) => `Выгрузка организаций с контактами в ${file}`,
    phrase: (_, said) => `${said(EXPORTED)} организации с контактами`,
  }),
  'organization.contactsViewed': auditEvent({
    action: 'read',
    entity: 'profile',
    data: z.object({ name: z.string(), contacts: z.number().int() }),
    details: ({ name, contacts }) => `Просмотр контактов организации "${name}": ${contacts}`,
    phrase: ({ name }, said) => `${said(VIEWED)} контакты организации${quoted(name)}`,
  }),
  'contact.created': auditEvent({
    action: 'create',
    entity: 'contact',
    data: contact.extend({ organization: z.string() }),
    details: (c) => `Добавлен контакт ${c.fullName} <${c.email}> в организацию "${c.organization}"`,
    phrase: (c, said) => `${said(ADDED)} контакт${quoted(c.fullName)} в организацию${quoted(c.organization)}`,
  }),
  'contact.updated': auditEvent({
    action: 'update',
    entity: 'contact',
    data: contact,
    details: (c) => `Изменён контакт ${c.fullName} <${c.email}>`,
    phrase: (c, said) => `${said(CHANGED)} контакт${quoted(c.fullName)}`,
  }),
  'contact.deleted': auditEvent({
    action: 'delete',
    entity: 'contact',
    data: contact,
    details: (c) => `Удалён контакт ${c.fullName} <${c.email}>`,
    phrase: (c, said) => `${said(DELETED)} контакт${quoted(c.fullName)}`,
  }),
} satisfies Record<string, AuditEventDefinition>;
