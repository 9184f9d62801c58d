import { randomUUID } from 'node:crypto';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import {
  AUDIT_EVENT_TABLES,
  AUDIT_EVENTS,
  auditDetailsOf,
  auditPhraseOf,
  type AuditEvent,
  type AuditPage,
  type Said,
} from '@portal/contracts';
import { recordModel } from '../models/record';
import { storeEvents } from '../queues/worker';
import { startAuditWithAuth, type AuditWithAuth } from '../testing';
import { LEGACY_KINDS } from './legacy';
import { migrateTypedEvents, readLegacyRecord } from './typedEvents';

const asMan: Said = ([masculine]) => masculine;
const definition = (code: string) => AUDIT_EVENTS[code as keyof typeof AUDIT_EVENTS];

describe('the table of audit events', () => {
  it('names each code once across the services', () => {
    const codes = Object.values(AUDIT_EVENT_TABLES).flatMap((table) => Object.keys(table));
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.length).toBe(Object.keys(AUDIT_EVENTS).length);
  });

  it('reads every code from a record written before the codes, so every phrase and every details is tried', () => {
    const read = new Set(LEGACY_KINDS.map((kind) => kind.code));
    expect(Object.keys(AUDIT_EVENTS).filter((code) => !read.has(code as never))).toEqual([]);
  });

  it.each(LEGACY_KINDS.map((kind) => [kind.code, kind] as const))(
    '%s: the old text reads as its code, and reads back in the same words',
    (code, kind) => {
      const { action, entity } = definition(code);
      const read = readLegacyRecord({ action, entity, details: kind.example.details });
      expect(read?.code).toBe(code);
      const record = { details: '', ...read };
      expect(auditDetailsOf(record)).toBe(kind.example.details);
      expect(auditPhraseOf(record, asMan)).toBe(kind.example.phrase);
    },
  );

  it('reads a record with no code, an unknown code or data its code does not fit as its stored text', () => {
    expect(auditDetailsOf({ details: 'Старая запись' })).toBe('Старая запись');
    expect(auditDetailsOf({ code: 'course.melted', data: {}, details: 'Курс растаял' })).toBe('Курс растаял');
    expect(auditDetailsOf({ code: 'contact.deleted', data: { fullName: 1 }, details: 'Удалён контакт' })).toBe('Удалён контакт');
    expect(auditPhraseOf({ details: 'Старая запись' }, asMan)).toBeNull();
  });

  it('never reads a text its code would write differently', () => {
    // The same start as a contact's deletion, with words after it the code does not write.
    expect(
      readLegacyRecord({ action: 'delete', entity: 'contact', details: 'Удалён контакт Борис <b@x.test> по ошибке' }),
    ).toBeNull();
    // The right words filed under another action.
    expect(readLegacyRecord({ action: 'create', entity: 'contact', details: 'Удалён контакт Борис <b@x.test>' })).toBeNull();
  });
});

describe('the migration of the stored trail', () => {
  let bed: AuditWithAuth;
  let auth: AuditWithAuth['auth'];
  let audit: AuditWithAuth['audit'];
  beforeAll(async () => {
    bed = await startAuditWithAuth();
    ({ auth, audit } = bed);
  });
  afterAll(() => bed.close());

  const legacyEvent = (
    entityId: string,
    { action, entity }: Pick<AuditEvent, 'action' | 'entity'>,
    details: string,
  ): AuditEvent => ({
    id: randomUUID(),
    service: 'test',
    action,
    entity,
    entityId,
    details,
    actor: { id: 'u1', fullName: 'Анна Смирнова', email: 'anna@example.test' },
    timestamp: new Date().toISOString(),
  });

  it('gives every record it can read its code and data, keeps the rest as text, and the history reads both', async () => {
    const records = recordModel(audit.ctx.store);
    const batch = `migration-${randomUUID()}`;
    const old = LEGACY_KINDS.map((kind) => legacyEvent(batch, definition(kind.code), kind.example.details));
    const unreadable = legacyEvent(batch, { action: 'update', entity: 'course' }, 'Курс изменён вручную администратором базы');
    await storeEvents(records, [...old, unreadable]);

    // Small pages, so that the walk by _id goes over several.
    const first = await migrateTypedEvents(records, 7);
    expect(first.migrated).toBeGreaterThanOrEqual(old.length);
    const stored = await records.find({ entityId: batch }).lean();
    for (const [i, kind] of LEGACY_KINDS.entries())
      expect(stored.find((r) => r._id === old[i].id)).toMatchObject({ code: kind.code, details: kind.example.details });
    expect(stored.find((r) => r._id === unreadable.id)?.code).toBeUndefined();

    // The history answers the codes and the same details; the unread record keeps its own text.
    const admin = await userWithRole(auth, 'ADMIN');
    const page = await api<AuditPage>(audit.url, 'GET', `/api/audit?limit=200&search=${encodeURIComponent('вручную')}`, {
      token: admin.token,
    });
    expect(page.status).toBe(200);
    expect(page.body.data).toContainEqual(expect.objectContaining({ id: unreadable.id, details: unreadable.details }));
    expect(page.body.data.find((r) => r.id === unreadable.id)?.code).toBeUndefined();
    const contact = old[LEGACY_KINDS.findIndex((k) => k.code === 'contact.created')];
    const contactPage = await api<AuditPage>(audit.url, 'GET', '/api/audit?limit=200&entity=contact&action=create', {
      token: admin.token,
    });
    expect(contactPage.body.data).toContainEqual(
      expect.objectContaining({
        id: contact.id,
        code: 'contact.created',
        data: { fullName: 'Борис Орлов', email: 'boris@example.test', organization: 'ООО Вектор' },
        details: contact.details,
      }),
    );

    // Once is enough: a rerun finds nothing new to read.
    const again = await migrateTypedEvents(records, 7);
    expect(again.migrated).toBe(0);
    expect(again.read).toBe(again.kept);
  });
});
