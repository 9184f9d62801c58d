import { Client } from 'pg';
import { startTestService, type TestService } from '@portal/devstack/testing';
import { progressOnStart } from '../app';
import { progressConfigSchema, type ProgressConfig } from '../config';
import { progressModels } from '../models';
import { dropRedundantIndexes, REDUNDANT_ATTEMPT_INDEXES } from './redundantIndexes';

let progress: TestService<ProgressConfig>;

beforeAll(async () => {
  // Only the store: the start's migrations call no other service.
  progress = await startTestService<ProgressConfig>('progress', () => [], {
    schema: progressConfigSchema,
    env: { AUTH_URL: 'http://127.0.0.1:9', CONTENT_URL: 'http://127.0.0.1:9' },
  });
});

afterAll(() => progress.close());

describe('the attempt indexes a longer one serves', () => {
  it('are dropped at the start of a store an earlier release made, once, with nothing of them left in PostgreSQL', async () => {
    const attempts = progressModels(progress.ctx.store).attempts;
    // As an earlier release left the store: its two shorter indexes beside the longer ones.
    await attempts.collection.createIndex({ status: 1, completedAt: -1 });
    await attempts.collection.createIndex({ userId: 1, status: 1, completedAt: -1 });

    await progressOnStart(progress.ctx);

    const names = (await attempts.collection.indexes()).map((index) => index.name);
    for (const name of REDUNDANT_ATTEMPT_INDEXES) expect(names).not.toContain(name);
    expect(names).toEqual(expect.arrayContaining(['status_1_completedAt_-1__id_-1', 'userId_1_status_1_completedAt_-1__id_-1']));
    // A second replica's start, or the next one, finds nothing to drop.
    expect(await dropRedundantIndexes(progressModels(progress.ctx.store), progress.ctx.logger)).toEqual([]);

    // On FerretDB over PostgreSQL, every index's GIN twin went with it (ginTwins.ts): no twin is left
    // whose index is gone, so no write to the attempts pays for an index nothing reads.
    const postgresqlUrl = process.env.FERRETDB_POSTGRESQL_URL;
    if (!postgresqlUrl) return;
    const client = new Client({ connectionString: postgresqlUrl });
    await client.connect();
    try {
      const orphans = await client.query(
        `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND c.relkind = 'i' AND c.relname ~ '^gin_[0-9]+_'
            AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indexrelid = substring(c.relname from '^gin_([0-9]+)_')::oid)`,
        [attempts.db.name],
      );
      const twins = await client.query(
        `SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = $1 AND indexname ~ '^gin_[0-9]+_attempts_'`,
        [attempts.db.name],
      );
      expect(orphans.rows).toEqual([]);
      // One twin for each index the store lists for the attempts, `_id`'s own among them.
      expect((twins.rows[0] as { n: number }).n).toBe(names.length);
    } finally {
      await client.end();
    }
  });
});
