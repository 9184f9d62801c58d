import type mongoose from 'mongoose';
import { createLogger } from './logger';
import { connectStore } from './mongo';
import { bumpVersion, VersionedCache } from './versionedCache';

// Two caches on one store stand for two replicas of a service: a write seen by either moves both.
const dbName = `t_cache_${process.pid}_${Date.now().toString(36)}`;
let store: mongoose.Connection;

beforeAll(async () => {
  store = await connectStore(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', dbName, createLogger('test', 'silent'), {
    attempts: 3,
  });
});
afterAll(async () => {
  await store.dropDatabase();
  await store.close();
});

/** A read of "the data" that counts how often the store would have been asked. */
function source(initial: string) {
  const state = { value: initial, reads: 0 };
  const read = async () => {
    state.reads++;
    await new Promise((resolve) => setTimeout(resolve, 20));
    return state.value;
  };
  return { state, read };
}

it('answers a question read once until the data is written, then the new data at once, in every replica', async () => {
  const one = new VersionedCache<string>(store, { name: 'things' });
  const two = new VersionedCache<string>(store, { name: 'things' });
  const { state, read } = source('first');

  // Fifty readers asking at once share one read; asked again, nothing is read.
  const answers = await Promise.all(Array.from({ length: 50 }, () => one.get({ page: 1 }, read)));
  expect(new Set(answers)).toEqual(new Set(['first']));
  expect(await one.get({ page: 1 }, read)).toBe('first');
  expect(state.reads).toBe(1);
  // Another question is another read.
  await one.get({ page: 2 }, read);
  expect(state.reads).toBe(2);

  // A write, through whichever replica: both answer the new data on their next read.
  await two.get({ page: 1 }, read);
  state.value = 'second';
  await bumpVersion(store, 'things');
  expect(await one.get({ page: 1 }, read)).toBe('second');
  expect(await two.get({ page: 1 }, read)).toBe('second');
});

it('keeps the versions of different names apart, and a failed read is not kept', async () => {
  const things = new VersionedCache<string>(store, { name: 'things' });
  const others = new VersionedCache<string>(store, { name: 'others' });
  const { state, read } = source('kept');
  await things.get('q', read);
  await others.get('q', read);
  await bumpVersion(store, 'others');
  await things.get('q', read);
  expect(state.reads).toBe(2); // only `others` was moved

  let fail = true;
  const flaky = async () => {
    if (fail) throw new Error('store away');
    return 'back';
  };
  await expect(things.get('flaky', flaky)).rejects.toThrow('store away');
  fail = false;
  expect(await things.get('flaky', flaky)).toBe('back');
});
