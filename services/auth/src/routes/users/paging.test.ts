import { MAX_PAGE_SIZE, PAGING_MSG, type Page, type User } from '@portal/contracts';
import { api, storeOperationsDuring } from '@portal/devstack/testing';
import { Types } from 'mongoose';
import { userModel } from '../../models/user';
import { startAuth, userWithRole } from '../../testing';

let auth: Awaited<ReturnType<typeof startAuth>>;
let token: string;
beforeAll(async () => {
  auth = await startAuth();
  token = (await userWithRole(auth, 'MANAGER')).token;
});
afterAll(() => auth.close());

const users = (query: string) => api<Page<User>>(auth.url, 'GET', `/api/users?${query}`, { token });

/** Stores `count` accounts named `tag …`, all made in the same millisecond (a seed or an import). */
async function storeUsers(tag: string, count: number): Promise<string[]> {
  const createdAt = new Date();
  const docs = Array.from({ length: count }, (_, i) => ({
    _id: new Types.ObjectId(),
    email: `${tag}.${i}@paging.test`.toLowerCase(),
    passwordHash: 'not-a-real-hash',
    fullName: `${tag} ${i}`,
    role: i % 2 ? 'CLIENT' : 'CANDIDATE',
    preset: false,
    createdAt,
    updatedAt: createdAt,
  }));
  await userModel(auth.ctx.store).collection.insertMany(docs);
  return docs.map((d) => String(d._id));
}

describe('GET /api/users in pages', () => {
  it('answers 20 by default and up to 100, refusing more with 400 in Russian', async () => {
    const tag = `limits${Date.now().toString(36)}`;
    await storeUsers(tag, MAX_PAGE_SIZE + 1);
    const first = await users(`search=${tag}`);
    expect(first.body).toMatchObject({ page: 1, limit: 20, total: MAX_PAGE_SIZE + 1 });
    expect(first.body.data).toHaveLength(20);
    expect((await users(`search=${tag}&limit=${MAX_PAGE_SIZE}`)).body.data).toHaveLength(MAX_PAGE_SIZE);

    const refused = await users(`limit=${MAX_PAGE_SIZE + 1}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      message: PAGING_MSG.limitInvalid.replace('{max}', String(MAX_PAGE_SIZE)),
      statusCode: 400,
    });
  });

  it('pages through accounts made in the same millisecond without losing or repeating one, also by role', async () => {
    const tag = `order${Date.now().toString(36)}`;
    const ids = await storeUsers(tag, 11);
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const answer = await users(`search=${tag}&limit=4&page=${page}`);
      expect(answer.body.total).toBe(11);
      seen.push(...answer.body.data.map((u) => u.id));
    }
    expect(seen).toEqual([...ids].sort().reverse());
    const clients = await users(`search=${tag}&role=CLIENT&limit=100`);
    expect(clients.body.data.map((u) => u.id)).toEqual(ids.filter((_, i) => i % 2).reverse());
  });

  it('reads the store twice for a page, however many accounts it holds', async () => {
    const few = `few${Date.now().toString(36)}`;
    const many = `many${Date.now().toString(36)}`;
    await storeUsers(few, 2);
    await storeUsers(many, 100);
    const fewOps = await storeOperationsDuring(auth, () => users(`search=${few}&limit=100`));
    const manyOps = await storeOperationsDuring(auth, () => users(`search=${many}&limit=100`));
    expect(manyOps.sort()).toEqual(fewOps.sort());
    expect(fewOps.filter((op) => op.startsWith('users.')).sort()).toEqual(['users.countDocuments', 'users.find']);
  });
});
