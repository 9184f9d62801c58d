import Router from '@koa/router';
import mongoose from 'mongoose';
import { MSG } from '@portal/contracts';
import { api, startTestService } from '@portal/devstack/testing';
import { createLogger } from './logger';
import { connectStore } from './mongo';
import { createRedis } from './redis';
import { coalesced, onlyDuplicateKeys, serialised, takeExpectedVersion, VERSION_CLAIMS, type ClaimRedis } from './versions';

// Two connections to one database stand for two processes (replicas) of one service.
const dbName = `t_claims_${process.pid}_${Date.now().toString(36)}`;
let one: mongoose.Connection;
let two: mongoose.Connection;

beforeAll(async () => {
  const url = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017';
  const logger = createLogger('test', 'silent');
  [one, two] = await Promise.all([
    connectStore(url, dbName, logger, { attempts: 3 }),
    connectStore(url, dbName, logger, { attempts: 3 }),
  ]);
});
afterAll(async () => {
  await one.dropDatabase();
  await Promise.all([one.close(), two.close()]);
});

it('runs the work of one key one caller at a time across processes, and every caller gets its turn', async () => {
  let inside = 0;
  let most = 0;
  const order: number[] = [];
  const callers = Array.from({ length: 12 }, (_, i) =>
    serialised(i % 2 ? one : two, 'touch:course-1', async () => {
      inside += 1;
      most = Math.max(most, inside);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(i);
      inside -= 1;
      return i;
    }),
  );
  expect(await Promise.all(callers)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  expect(most).toBe(1);
  expect(order).toHaveLength(12);
  // Nothing is left held: the next caller gets the key at once.
  expect(await one.collection(VERSION_CLAIMS).countDocuments({ _id: 'touch:course-1' as never })).toBe(0);
});

it('keys are independent, and a claim left by a stopped process is taken over after its time', async () => {
  await one.collection(VERSION_CLAIMS).insertOne({ _id: 'touch:abandoned' as never, at: new Date(Date.now() - 60_000) });
  const started = Date.now();
  await expect(serialised(two, 'touch:abandoned', async () => 'taken over', { staleAfterMs: 1_000 })).resolves.toBe('taken over');
  expect(Date.now() - started).toBeLessThan(1_000);
});

it('gives up with 503 and a Russian message when the key stays held past the wait', async () => {
  await one.collection(VERSION_CLAIMS).insertOne({ _id: 'touch:held' as never, at: new Date() });
  await expect(serialised(two, 'touch:held', async () => 'never', { waitMs: 200 })).rejects.toMatchObject({
    statusCode: 503,
    headers: { 'Retry-After': '1' },
    message: 'Сервер перегружен. Повторите попытку через секунду',
  });
});

it('a burst of callers shares runs: one at a time, fewer runs than callers, and the last run sees every write', async () => {
  let written = 0;
  let inside = 0;
  let most = 0;
  const seenByRun: number[] = [];
  const callers = Array.from({ length: 16 }, async (_, i) => {
    // Each caller writes, then asks for the recount; the writes land at different moments of the runs.
    await new Promise((resolve) => setTimeout(resolve, (i % 4) * 15));
    written += 1;
    await coalesced(i % 2 ? one : two, 'touch:burst', async () => {
      inside += 1;
      most = Math.max(most, inside);
      const seen = written;
      await new Promise((resolve) => setTimeout(resolve, 20));
      seenByRun.push(seen);
      inside -= 1;
    });
  });
  await Promise.all(callers);
  expect(most).toBe(1);
  expect(seenByRun.at(-1)).toBe(16);
  expect(seenByRun.length).toBeLessThan(16);
  expect(
    await one.collection(VERSION_CLAIMS).countDocuments({ _id: { $in: ['touch:burst', 'touch:burst:waiting'] } as never }),
  ).toBe(0);
});

it('a caller who finds a run under way, already reading, gets a run of its own after it', async () => {
  const seenByRun: string[] = [];
  let state = 'before';
  let began!: () => void;
  const reading = new Promise<void>((resolve) => (began = resolve));
  const first = coalesced(one, 'touch:late', async () => {
    const seen = state;
    began();
    await new Promise((resolve) => setTimeout(resolve, 100));
    seenByRun.push(seen);
  });
  await reading;
  state = 'after';
  await coalesced(two, 'touch:late', async () => {
    seenByRun.push(state);
  });
  await first;
  expect(seenByRun).toEqual(['before', 'after']);
});

describe('a claim held in Redis (serialised with `redis`)', () => {
  const logger = createLogger('test', 'silent');
  const prefix = `t_claims_${process.pid}_${Date.now().toString(36)}`;
  // Two connections stand for two replicas; the unreachable one is a Redis that is down for its replica.
  const redisOne = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', logger, { failFast: true });
  const redisTwo = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', logger, { failFast: true });
  const down = createRedis('redis://127.0.0.1:9', logger, { failFast: true });
  const viaOne: ClaimRedis = { redis: redisOne, prefix };
  const viaTwo: ClaimRedis = { redis: redisTwo, prefix };
  afterAll(() => {
    for (const r of [redisOne, redisTwo, down]) r.disconnect();
  });

  const oneAtATime = async (callers: Array<ClaimRedis | undefined>, key: string) => {
    let inside = 0;
    let most = 0;
    const done = await Promise.all(
      callers.map((redis, i) =>
        serialised(
          i % 2 ? one : two,
          key,
          async () => {
            inside += 1;
            most = Math.max(most, inside);
            await new Promise((resolve) => setTimeout(resolve, 5));
            inside -= 1;
            return i;
          },
          { redis },
        ),
      ),
    );
    return { done, most };
  };

  it('runs one caller at a time across processes, and writes nothing to the store', async () => {
    const { done, most } = await oneAtATime(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? viaOne : viaTwo)),
      'attempts:a1:close',
    );
    expect(done).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(most).toBe(1);
    const whileHeld = await serialised(
      one,
      'attempts:a1:close',
      async () => ({
        store: await one.collection(VERSION_CLAIMS).countDocuments({ _id: 'attempts:a1:close' as never }),
        redis: await redisOne.exists(`${prefix}:claim:attempts:a1:close`),
      }),
      { redis: viaOne },
    );
    expect(whileHeld).toEqual({ store: 0, redis: 1 });
    // Released: nothing is left held for the next caller.
    expect(await redisOne.exists(`${prefix}:claim:attempts:a1:close`)).toBe(0);
  });

  it('a claim its holder never released expires after its time, and another caller gets it', async () => {
    await redisOne.set(`${prefix}:claim:attempts:a2:close`, 'a stopped replica', 'PX', 300);
    const started = Date.now();
    await expect(serialised(two, 'attempts:a2:close', async () => 'taken', { redis: viaTwo })).resolves.toBe('taken');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('gives up with the Russian 503 when the claim stays held past the wait', async () => {
    await redisOne.set(`${prefix}:claim:attempts:a3:close`, 'another replica', 'PX', 5_000);
    await expect(serialised(two, 'attempts:a3:close', async () => 'never', { redis: viaTwo, waitMs: 200 })).rejects.toMatchObject(
      {
        statusCode: 503,
        message: 'Сервер перегружен. Повторите попытку через секунду',
      },
    );
  });

  it('with Redis down the store’s claim is taken instead, still one caller at a time', async () => {
    const downFor: ClaimRedis = { redis: down, prefix };
    const { done, most } = await oneAtATime(
      Array.from({ length: 6 }, () => downFor),
      'attempts:a4:close',
    );
    expect(done).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(1);
    // The claim was the store's: held there while the work ran.
    const heldInStore = await serialised(
      one,
      'attempts:a4:close',
      () => one.collection(VERSION_CLAIMS).countDocuments({ _id: 'attempts:a4:close' as never }),
      { redis: downFor },
    );
    expect(heldInStore).toBe(1);
    expect(await one.collection(VERSION_CLAIMS).countDocuments({ _id: 'attempts:a4:close' as never })).toBe(0);
  });
});

describe('the version an edit names (takeExpectedVersion)', () => {
  // A route that answers what it was given: the versions named, and the body left for the schema.
  const echo = () =>
    startTestService('content', () => {
      const router = new Router();
      router.patch('/api/things/:id', async (ctx) => {
        const expected = takeExpectedVersion(ctx);
        ctx.body = { expected, body: ctx.request.body };
      });
      return [router];
    });

  it('is taken from If-Match or the body, which keeps no version field', async () => {
    const service = await echo();
    try {
      const fromBody = await api(service.url, 'PATCH', '/api/things/1', { body: { title: 'А', version: 4 } });
      expect(fromBody.body).toEqual({ expected: [4], body: { title: 'А' } });
      const fromHeader = await api(service.url, 'PATCH', '/api/things/1', {
        body: { title: 'Б', version: 9 },
        headers: { 'If-Match': '"2", W/"3", "5"' },
      });
      expect(fromHeader.body).toEqual({ expected: [2, 5], body: { title: 'Б' } });
    } finally {
      await service.close();
    }
  });

  it('is required: none, null or If-Match: * is 428 with the Russian message, and a malformed one 400', async () => {
    const service = await echo();
    try {
      for (const [body, headers] of [
        [{ title: 'В' }, {}],
        [{ title: 'В', version: null }, {}],
        [{ title: 'В' }, { 'If-Match': '*' }],
        [undefined, {}],
      ] as Array<[unknown, Record<string, string>]>) {
        const answer = await api(service.url, 'PATCH', '/api/things/1', { body, headers });
        expect({ body, headers, answer: answer.body }).toEqual({
          body,
          headers,
          answer: { statusCode: 428, message: MSG.versionRequired },
        });
      }
      const malformed = await api(service.url, 'PATCH', '/api/things/1', { body: { title: 'Г', version: '1' } });
      expect(malformed.body).toEqual({ statusCode: 400, message: MSG.versionInvalid, field: 'version' });
    } finally {
      await service.close();
    }
  });
});

it('takes an unordered bulk write as refused on duplicate keys only when every write error is one, in either shape', () => {
  const duplicate = { index: 0, code: 11000 };
  expect(onlyDuplicateKeys({ code: 11000, writeErrors: [duplicate, { index: 2, code: 11000 }] })).toBe(true);
  // FerretDB may answer one write error as an object, not an array.
  expect(onlyDuplicateKeys({ code: 11000, writeErrors: duplicate })).toBe(true);
  expect(onlyDuplicateKeys({ code: 11000 })).toBe(true);
  // A document refused for another reason beside the duplicates is a real failure.
  expect(onlyDuplicateKeys({ code: 11000, writeErrors: [duplicate, { index: 1, code: 121 }] })).toBe(false);
  expect(onlyDuplicateKeys({ code: 121, writeErrors: [{ index: 0, code: 121 }] })).toBe(false);
  expect(onlyDuplicateKeys(new Error('connection closed'))).toBe(false);
  expect(onlyDuplicateKeys(null)).toBe(false);
});
