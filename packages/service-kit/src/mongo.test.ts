import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import mongoose, { Schema } from 'mongoose';
import { createLogger } from './logger';
import { connectStore, ensureIndexes, op, storeModel, updateEach } from './mongo';

// The mongoose calls the portal relies on, proven against the store the tests run on (FerretDB here).
const dbName = `t_probe_${process.pid}_${Date.now().toString(36)}`;
let store: mongoose.Connection;

interface Person {
  email: string;
  score: number;
  tags: string[];
  items: Array<{ name: string; options: string[] }>;
}
const schema = new Schema<Person>(
  {
    email: { type: String, required: true, unique: true },
    score: { type: Number, default: 0 },
    tags: [String],
    items: [{ name: String, options: [String] }],
  },
  { timestamps: true },
);

beforeAll(async () => {
  store = await connectStore(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', dbName, createLogger('test', 'silent'), {
    attempts: 3,
  });
});
afterAll(async () => {
  await store.dropDatabase();
  await store.close();
});

it('creates, enforces a unique index, updates, deletes and counts', async () => {
  const People = store.model<Person>('Person', schema);
  await People.syncIndexes();
  const ann = await People.create({ email: 'ann@x.test', items: [{ name: 'q1', options: ['a', 'b'] }] });
  await expect(People.create({ email: 'ann@x.test' })).rejects.toMatchObject({ code: 11000 });

  await People.updateOne({ _id: ann._id }, { $inc: { score: 5 }, $addToSet: { tags: { $each: ['hr', 'hr', 'it'] } } });
  const updated = await People.findById(ann._id).lean();
  expect(updated).toMatchObject({ score: 5, tags: ['hr', 'it'], items: [{ name: 'q1', options: ['a', 'b'] }] });

  await People.insertMany([
    { email: 'bob@x.test', score: 1 },
    { email: 'eve@x.test', score: 9 },
  ]);
  expect(await People.countDocuments({ score: op({ $gte: 5 }) })).toBe(2);
  expect(await People.countDocuments({ email: op({ $in: ['bob@x.test', 'eve@x.test'] }) })).toBe(2);
  expect(await People.countDocuments({ email: /^BOB/i })).toBe(1);

  await People.deleteOne({ email: 'bob@x.test' });
  expect(await People.countDocuments()).toBe(2);
  const [{ total }] = await People.aggregate<{ total: number }>([{ $group: { _id: null, total: { $sum: '$score' } } }]);
  expect(total).toBe(14);
});

it('neutralises operator objects that arrive from request input', async () => {
  const Accounts = store.model('Account', new Schema({ login: String, secret: String }));
  await Accounts.create({ login: 'admin', secret: 's3cret' });
  const injected = JSON.parse('{"login": "admin", "secret": {"$ne": "guess"}}') as Record<string, unknown>;
  await expect(Accounts.findOne(injected)).rejects.toThrow();
  expect(await Accounts.countDocuments({ login: 'admin', secret: 's3cret' })).toBe(1);
});

it('creates the indexes a schema declares at start and never drops one it does not know (rolling deploys)', async () => {
  // The old version of a service declared an index on `legacy`; the new one does not.
  const legacySchema = new Schema({ code: { type: String, index: true }, legacy: { type: String, index: true } });
  const Old = store.model('IndexedOld', legacySchema, 'indexed_things');
  await ensureIndexes([Old]);
  const names = async () => (await store.db!.collection('indexed_things').indexes()).map((i) => i.name).sort();
  expect(await names()).toEqual(['_id_', 'code_1', 'legacy_1']);

  const newSchema = new Schema({ code: { type: String, index: true }, added: { type: Number, index: true } });
  const New = store.model('IndexedNew', newSchema, 'indexed_things');
  await ensureIndexes({ things: New });
  // The new version's index is there, and the old version (still running) keeps its own.
  expect(await names()).toEqual(['_id_', 'added_1', 'code_1', 'legacy_1']);
  // Twice is harmless: a second replica starting does the same.
  await ensureIndexes([New, Old]);
  expect(await names()).toEqual(['_id_', 'added_1', 'code_1', 'legacy_1']);
});

it('makes each index once, though mongoose also makes them as a model is compiled', async () => {
  // Compiling a model starts mongoose's own index making (autoIndex); asked beside it, FerretDB made
  // the same index twice (9 of 50 collections listed one twice).
  const models = Array.from({ length: 20 }, (_, i) =>
    store.model(`Twice${i}`, new Schema({ code: { type: String, index: true }, at: { type: Date, index: true } }), `twice_${i}`),
  );
  await ensureIndexes(models);
  for (let i = 0; i < models.length; i++) {
    const names = (await store.db!.collection(`twice_${i}`).indexes()).map((index) => index.name).sort();
    expect(names).toEqual(['_id_', 'at_1', 'code_1']);
  }
});

it('makes the indexes of many models at start on a store slow to answer and to open connections', async () => {
  // A busy store, played by a proxy in front of the real one: once `busy`, every new connection
  // opens after 1.2 s and every answer comes 150 ms late. All models at once, the commands queued
  // for a connection past the pool's 2 s deadline (MongoWaitQueueTimeoutError) and the start failed.
  const target = new URL(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017');
  let busy = false;
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    sockets.add(client);
    const opensAfter = busy ? 1200 : 0;
    setTimeout(() => {
      const upstream = connect(Number(target.port || 27017), target.hostname);
      sockets.add(upstream);
      client.pipe(upstream);
      upstream.on('data', (chunk: Buffer) => {
        if (!busy) return void client.write(chunk);
        upstream.pause();
        setTimeout(() => {
          client.write(chunk);
          upstream.resume();
        }, 150);
      });
      for (const [one, other] of [
        [client, upstream],
        [upstream, client],
      ])
        one.on('error', () => other.destroy()).on('close', () => other.destroy());
    }, opensAfter);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  const slowStore = await connectStore(`mongodb://127.0.0.1:${port}/`, `${dbName}_busy`, createLogger('test', 'silent'), {
    attempts: 3,
  });
  try {
    busy = true;
    const models = Array.from({ length: 7 }, (_, i) =>
      slowStore.model(
        `Crowded${i}`,
        new Schema({ code: { type: String, index: true }, at: { type: Date, index: true } }),
        `crowded_${i}`,
      ),
    );
    await ensureIndexes(models);
    busy = false;
    for (let i = 0; i < models.length; i++) {
      const names = (await slowStore.db!.collection(`crowded_${i}`).indexes()).map((index) => index.name).sort();
      expect(names).toEqual(['_id_', 'at_1', 'code_1']);
    }
  } finally {
    busy = false;
    await slowStore.dropDatabase().catch(() => undefined);
    await slowStore.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => proxy.close(resolve));
  }
}, 30_000);

it('gives up on indexes at once when the store refuses them, and after the deadline when it does not answer', async () => {
  const refused = Object.assign(new Error('index options conflict'), { name: 'MongoServerError', code: 85 });
  let asked = 0;
  await expect(
    ensureIndexes([{ createIndexes: () => Promise.reject(refused).finally(() => asked++) }], { retryDelayMs: 5 }),
  ).rejects.toBe(refused);
  expect(asked).toBe(1);

  const unanswered = Object.assign(new Error('Timed out while checking out a connection'), {
    name: 'MongoWaitQueueTimeoutError',
  });
  const started = Date.now();
  await expect(
    ensureIndexes([{ createIndexes: () => Promise.reject(unanswered) }], { deadlineMs: 100, retryDelayMs: 10 }),
  ).rejects.toBe(unanswered);
  expect(Date.now() - started).toBeLessThan(1000);
});

it('registers a model on a connection once, in its collection, and answers the same one after', async () => {
  const labels = storeModel<{ text: string }>('Label', new Schema<{ text: string }>({ text: String }), 'probe_labels');
  const first = labels(store);
  expect(labels(store)).toBe(first);
  expect(first.collection.collectionName).toBe('probe_labels');
  await first.create({ text: 'один' });
  expect(await labels(store).countDocuments()).toBe(1);
});

it('sends many updates, from three writers at once, and the store keeps answering (updateEach)', async () => {
  // On FerretDB a bulk of 50 updates, or three bulks of 20 at once, never answered and stopped the
  // whole store (updateEach's comment): the same 150 updates go one command each.
  const Scores = store.model<Person>('Score', schema, 'scores');
  const people = await Scores.insertMany(Array.from({ length: 150 }, (_, i) => ({ email: `p${i}@x.test` })));
  const writers = [0, 1, 2].map((w) =>
    updateEach(
      Scores,
      people
        .slice(w * 50, w * 50 + 50)
        .map((p, i) => ({ updateOne: { filter: { _id: p._id }, update: { $set: { score: w * 100 + i } } } })),
    ),
  );
  expect(await Promise.all(writers)).toEqual([0, 1, 2].map(() => ({ matched: 50, modified: 50, upserted: 0 })));
  expect(await Scores.countDocuments({ score: op({ $gte: 200 }) })).toBe(50);
  // An upsert inserts; a failing update (a taken email) is thrown after the others were tried.
  const upserted = await updateEach(Scores, [
    { updateOne: { filter: { email: 'new@x.test' }, update: { $set: { score: 7 } }, upsert: true } },
  ]);
  expect(upserted).toEqual({ matched: 0, modified: 0, upserted: 1 });
  await expect(
    updateEach(Scores, [
      { updateOne: { filter: { _id: people[0]._id }, update: { $set: { email: 'p1@x.test' } } } },
      { updateOne: { filter: { _id: people[2]._id }, update: { $set: { score: -1 } } } },
    ]),
  ).rejects.toThrow(/duplicate key/);
  expect((await Scores.findById(people[2]._id).lean())!.score).toBe(-1);
}, 60_000);
