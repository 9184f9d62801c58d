import type { Client } from 'pg';
import { scratchDatabase, type ScratchDatabase } from './pgScratch';
import { keepStatistics } from './pgStatistics';

// A database of its own, so that only its tables are vacuumed here.
let scratch: ScratchDatabase;
let db: Client;

beforeAll(async () => {
  scratch = await scratchDatabase('portal_stats');
  db = scratch.client;
});

afterAll(() => scratch?.drop());

const statsOfT = async () =>
  (
    await db.query<{ analyzed: boolean; dead: number; rows: number }>(
      `SELECT s.last_analyze IS NOT NULL AS analyzed, s.n_dead_tup::int AS dead, c.reltuples::int AS rows
         FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relname = 't'`,
    )
  ).rows[0];

it('on a server without autovacuum, analyzes and vacuums the tables being written, as autovacuum would, and leaves old ones', async () => {
  const autovacuum = (await db.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0].autovacuum;
  await db.query('CREATE TABLE old (_jsonb jsonb)');
  await db.query(`INSERT INTO old SELECT jsonb_build_object('_id', i) FROM generate_series(1, 500) i`);
  // The server reports a backend's writes a moment after them: the keeper is started once they show.
  for (let tries = 0; tries < 100; tries++) {
    const shown = await db.query<{ n: number }>(`SELECT n_tup_ins::int AS n FROM pg_stat_user_tables WHERE relname = 'old'`);
    if (shown.rows[0]?.n === 500) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stop = await keepStatistics(scratch.url, 100);
  try {
    // A server with autovacuum (production's) is left to it.
    expect(stop === null).toBe(autovacuum === 'on');
    if (!stop) return;
    // Its first round only looks: a table of an earlier run, written before and never since, is left.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.query('CREATE TABLE t (_jsonb jsonb)');
    await db.query(`CREATE INDEX t_id ON t USING gin ((_jsonb -> '_id'))`);
    await db.query(`INSERT INTO t SELECT jsonb_build_object('_id', i, 'text', repeat('x', 3000)) FROM generate_series(1, 500) i`);
    await db.query(`UPDATE t SET _jsonb = _jsonb || '{"seen": true}' WHERE (_jsonb ->> '_id')::int <= 200`);
    const deadline = Date.now() + 10_000;
    let stats = await statsOfT();
    while (!(stats.analyzed && stats.dead === 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stats = await statsOfT();
    }
    expect(stats).toEqual({ analyzed: true, dead: 0, rows: 500 });
    const old = await db.query(`SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'old'`);
    expect(old.rows[0]).toEqual({ last_analyze: null });
    // What the statistics are for: one document by its id is an index lookup, not a scan of every row.
    const plan = await db.query(`EXPLAIN SELECT _jsonb FROM t WHERE _jsonb -> '_id' @> '42'`);
    expect(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')).toMatch(/Index Scan on t_id/);
  } finally {
    await stop?.();
  }
});
