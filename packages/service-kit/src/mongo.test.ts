import mongoose, { Schema } from 'mongoose';
import { createLogger } from './logger';
import { connectStore, ensureIndexes, op, storeModel } from './mongo';

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

it('registers a model on a connection once, in its collection, and answers the same one after', async () => {
  const labels = storeModel<{ text: string }>('Label', new Schema<{ text: string }>({ text: String }), 'probe_labels');
  const first = labels(store);
  expect(labels(store)).toBe(first);
  expect(first.collection.collectionName).toBe('probe_labels');
  await first.create({ text: 'один' });
  expect(await labels(store).countDocuments()).toBe(1);
});
