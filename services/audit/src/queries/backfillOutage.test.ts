import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Connection } from 'mongoose';
import type { ManagedProcess } from '@portal/devstack/processes';
import { scratchDatabase, type ScratchDatabase } from '@portal/devstack/pgScratch';
import { ferretdbPath, startFerretDB } from '@portal/devstack/store';
import { freePort, sleep } from '@portal/devstack/util';
import { connectStore, createLogger, op, storeIsUp } from '@portal/service-kit';
import { recordModel } from '../models/record';
import { backfillRecordFields } from './records';

/*
 * The store dies while audit's start-up backfill is moving older records: the backfill stops, and
 * once the store is back audit's own connection answers pings and stores events again, without a
 * restart. A private FerretDB, so it can be killed, on a database of its own on the run's PostgreSQL,
 * as the portal's store runs.
 */

let ferret: ManagedProcess;
let port: number;
let dir: string;
let store: Connection;
let database: ScratchDatabase;

const startStore = () => startFerretDB(ferretdbPath()!, port, dir, `ferretdb-audit-${port}`, { postgresqlUrl: database.url });

beforeAll(async () => {
  port = await freePort();
  dir = mkdtempSync(path.join(tmpdir(), 'audit-backfill-'));
  database = await scratchDatabase('audit_backfill');
  ferret = await startStore();
  store = await connectStore(`mongodb://127.0.0.1:${port}`, 'audit_backfill', createLogger('test', 'silent'));
}, 60_000);

afterAll(async () => {
  await store.close().catch(() => undefined);
  await ferret.stop('SIGKILL');
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

const OLDER = 6_000;

it('stops when the store dies mid-backfill, and audit stores events again once it is back', async () => {
  const records = recordModel(store);
  const at = new Date('2026-11-01T09:00:00Z');
  // Records from before `actorId` and `day`. The backfill moves them 20 a batch here, so that the
  // store dies with most of the walk still ahead.
  for (let from = 0; from < OLDER; from += 1_000) {
    await records.collection.insertMany(
      Array.from({ length: 1_000 }, (_, i) => ({
        _id: `older-${from + i}`,
        eventId: `older-${from + i}`,
        service: 'crm',
        action: 'update',
        entity: 'organization',
        entityId: null,
        details: 'Организация изменена',
        actor: { id: `u${i % 50}`, fullName: 'Анна Смирнова', email: 'anna@example.ru' },
        timestamp: at,
      })) as never[],
    );
  }

  const backfill = backfillRecordFields(records, 20).then(
    (moved) => ({ moved, err: null as Error | null }),
    (err: Error) => ({ moved: -1, err }),
  );
  // Killed once the walk is under way, not before it and not after it.
  const walking = Date.now() + 20_000;
  while ((await records.countDocuments({ day: op({ $exists: true }) })) < 40 && Date.now() < walking) await sleep(20);
  await ferret.stop('SIGKILL');
  const stopped = await backfill;
  expect(stopped.err).not.toBeNull();

  ferret = await startStore();
  const back = Date.now() + 15_000;
  let stored = false;
  while (!stored && Date.now() < back) {
    stored = await records
      .create({
        eventId: 'after-outage',
        _id: 'after-outage',
        service: 'crm',
        action: 'create',
        entity: 'organization',
        entityId: null,
        details: 'Организация создана',
        actor: null,
        timestamp: new Date(),
      })
      .then(
        () => true,
        () => false,
      );
    if (!stored) await sleep(250);
  }
  expect(stored).toBe(true);
  expect(await storeIsUp(store)).toBe(true);
  // Nothing the walk had moved was lost, and what it had not moved waits for the next start.
  const moved = await records.countDocuments({ action: 'update', day: op({ $exists: true }) });
  expect(moved).toBeGreaterThanOrEqual(40);
  expect(await records.countDocuments({ action: 'update', day: op({ $exists: false }) })).toBe(OLDER - moved);
}, 90_000);

it('moves older records in bulks the store answers: 200 of them in one start', async () => {
  const records = recordModel(store.useDb('audit_backfill_batches'));
  await records.collection.insertMany(
    Array.from({ length: 200 }, (_, i) => ({
      _id: `batch-${i}`,
      eventId: `batch-${i}`,
      service: 'crm',
      action: 'update',
      entity: 'organization',
      entityId: null,
      details: 'Организация изменена',
      actor: { id: `u${i % 20}`, fullName: 'Анна Смирнова', email: 'anna@example.ru' },
      timestamp: new Date('2026-11-02T09:00:00Z'),
    })) as never[],
  );
  expect(await backfillRecordFields(records)).toBe(200);
  expect(await records.countDocuments({ day: '2026-11-02' })).toBe(200);
}, 60_000);
