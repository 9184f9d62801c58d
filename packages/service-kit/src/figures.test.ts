import mongoose, { Schema } from 'mongoose';
import { LIST_TOTAL_CAP } from '@portal/contracts';
import { countFigure, lowerBoundsOf } from './figures';
import { createLogger } from './logger';
import { connectStore } from './mongo';

// Dashboard figures counted on the store the tests run on (FerretDB here), past the cap and under it.
const dbName = `t_figures_${process.pid}_${Date.now().toString(36)}`;
let store: mongoose.Connection;

interface Person {
  kind: string;
  joinedAt: Date;
}
let People: mongoose.Model<Person>;

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 27, 12);
const daysAgo = (days: number) => new Date(now - days * DAY);

beforeAll(async () => {
  store = await connectStore(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', dbName, createLogger('test', 'silent'), {
    attempts: 3,
  });
  People = store.model<Person>('Person', new Schema<Person>({ kind: String, joinedAt: Date }, { versionKey: false }));
  // Past the cap: more learners than it, every one of them joined 5 days ago.
  const learners = Array.from({ length: LIST_TOTAL_CAP + 1 }, () => ({ kind: 'learner', joinedAt: daysAgo(5) }));
  for (let i = 0; i < learners.length; i += 2_000) await People.collection.insertMany(learners.slice(i, i + 2_000));
  // Under it: 1 staff member joined 10 days ago, 2 in the 30 days before, 1 long ago.
  await People.collection.insertMany([10, 35, 59, 400].map((days) => ({ kind: 'staff', joinedAt: daysAgo(days) })));
}, 120_000);
afterAll(async () => {
  await store.dropDatabase();
  await store.close();
});

describe('countFigure', () => {
  it('counts a figure under the cap exactly, with its last 30 days against the 30 before', async () => {
    const staff = await countFigure(People, { kind: 'staff' }, 'joinedAt', now);
    expect(staff).toEqual({ count: 4, exact: true, change: { last30: 1, prev30: 2 } });
    expect(lowerBoundsOf({ staff })).toEqual({});
  });

  it('stops at the cap and says so, for the figure and for a window of its change', async () => {
    const learners = await countFigure(People, { kind: 'learner' }, 'joinedAt', now);
    expect(learners).toEqual({
      count: LIST_TOTAL_CAP,
      exact: false,
      change: { last30: LIST_TOTAL_CAP, prev30: 0, exact: false },
    });

    const everyone = await countFigure(People, {}, 'joinedAt', now);
    expect(everyone).toMatchObject({ count: LIST_TOTAL_CAP, exact: false });
    const staff = await countFigure(People, { kind: 'staff' }, 'joinedAt', now);
    expect(lowerBoundsOf({ everyone, staff, learners })).toEqual({ lowerBounds: ['everyone', 'learners'] });
  });
});
