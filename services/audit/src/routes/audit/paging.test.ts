import { randomUUID } from 'node:crypto';
import { PAGING_MSG, type AuditPage } from '@portal/contracts';
import { api, startTestService, storeOperationsDuring, type TestService } from '@portal/devstack/testing';
import { startAuth, userWithRole } from '@portal/svc-auth/testing';
import { auditRouters } from '../../app';
import { recordModel } from '../../models/record';

const AUDIT_MAX = 200;

let auth: Awaited<ReturnType<typeof startAuth>>;
let reader: TestService;
let admin: string;
const at = new Date('2026-05-05T10:00:00.000Z');

beforeAll(async () => {
  auth = await startAuth();
  reader = await startTestService('audit', auditRouters, { env: { AUTH_URL: auth.url } });
  const records = recordModel(reader.ctx.store);
  await records.syncIndexes();
  // 250 records of the same millisecond: only the tie-breaker orders them.
  await records.insertMany(
    Array.from({ length: 250 }, (_, i) => {
      const id = randomUUID();
      return {
        _id: id,
        eventId: id,
        service: 'test',
        action: i % 2 ? 'update' : 'create',
        entity: 'course',
        entityId: `c${i}`,
        details: `Запись ${i}`,
        actor: { id: 'u1', fullName: 'Иван Петров', email: 'ivan@example.test' },
        timestamp: at,
      };
    }),
  );
  admin = (await userWithRole(auth, 'ADMIN')).token;
});
afterAll(async () => {
  await reader.close();
  await auth.close();
});

const history = (query: string) => api<AuditPage>(reader.url, 'GET', `/api/audit?${query}`, { token: admin });

describe('GET /api/audit in pages', () => {
  it('answers 50 by default and up to 200, refusing more with 400 in Russian', async () => {
    const first = await history('');
    expect(first.body).toMatchObject({ page: 1, limit: 50, total: 250 });
    expect(first.body.data).toHaveLength(50);
    expect((await history(`limit=${AUDIT_MAX}`)).body.data).toHaveLength(AUDIT_MAX);
    const refused = await history(`limit=${AUDIT_MAX + 1}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: PAGING_MSG.limitInvalid.replace('{max}', String(AUDIT_MAX)), statusCode: 400 });
  });

  it('pages a filtered history of one millisecond without losing or repeating a record, in either order', async () => {
    for (const sort of ['newest', 'oldest']) {
      const ids: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const answer = await history(`action=update&startDate=2026-05-05&endDate=2026-05-05&limit=50&page=${page}&sort=${sort}`);
        expect(answer.body.total).toBe(125);
        ids.push(...answer.body.data.map((r) => r.id));
      }
      expect(ids).toHaveLength(125);
      expect(new Set(ids).size).toBe(125);
    }
  });

  it('reads the store twice for a page of any size', async () => {
    const small = await storeOperationsDuring(reader, () => history('action=update&limit=1'));
    const large = await storeOperationsDuring(reader, () => history('action=update&limit=200'));
    expect(large).toEqual(small);
    expect(small).toEqual(['audit_records.find', 'audit_records.countDocuments']);
  });
});
