/**
 * PostgreSQL plans each of FerretDB's queries from the statistics its autovacuum gathers. A server
 * configured without autovacuum (this machine kind's own is: `autovacuum = off` in its
 * `conf.d/90-ci.conf`) never gathers them, so every table reads as never analyzed: the planner takes a
 * table of a thousand attempts for one of a few rows and scans it, taking each row's jsonb out of
 * TOAST to read one field (an exam storm's scans read 558,000 attempts, 2.7 million drafts), and keeps
 * that plan for FerretDB's prepared statements, since nothing invalidates it. Updated rows are never
 * vacuumed either: each draft save leaves a dead row behind (950 drafts took 557 pages).
 *
 * So when the server says `autovacuum` is off, the launcher does for FerretDB's database what
 * autovacuum would: every `everyMs` it vacuums and analyzes the tables written since its last look
 * that are past autovacuum's default thresholds (50 rows + 10% changed since the last analyze, or
 * 50 + 20% dead). A server with autovacuum on (any production PostgreSQL) is left to it.
 */

/** Every table's counters in FerretDB's database: what changed since the last round, and by how much. */
const TABLES = `
SELECT format('%I.%I', schemaname, relname) AS name,
       (n_tup_ins + n_tup_upd + n_tup_del)::bigint AS writes,
       (n_mod_since_analyze > 50 + 0.1 * n_live_tup OR n_dead_tup > 50 + 0.2 * n_live_tup) AS due
  FROM pg_stat_user_tables`;

/** At most this many tables a round, the busiest first: a round never holds the server for long. */
const PER_ROUND = 20;

/** Starts keeping the statistics of the database at `url` when its server has no autovacuum; answers how to stop, or null. */
export async function keepStatistics(url: string, everyMs = 10_000): Promise<(() => Promise<void>) | null> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  const setting = await client.query<{ autovacuum: string }>('SHOW autovacuum');
  if (setting.rows[0]?.autovacuum !== 'off') {
    await client.end().catch(() => undefined);
    return null;
  }
  // Paced as autovacuum paces itself (its `autovacuum_vacuum_cost_delay` of 2 ms): a manual VACUUM
  // or ANALYZE runs unpaced by default, a burst of the server's work every round.
  await client.query(`SET vacuum_cost_delay = '2ms'`);
  let running: Promise<void> | null = null;
  // The tables' write counters as last seen. Only tables written since are vacuumed: a database full of
  // the tables of earlier runs, never analyzed and never read again, is not worked through at once
  // (that backlog, done in an exam storm's first minute, cost more than the statistics saved). The
  // first round only looks; a table first seen later is new, and counts from 0.
  let seen: Map<string, number> | null = null;
  const round = async () => {
    const tables = await client.query<{ name: string; writes: string; due: boolean }>(TABLES);
    const before = seen;
    seen = new Map(tables.rows.map((t) => [t.name, Number(t.writes)]));
    if (!before) return;
    const active = tables.rows
      .map((t) => ({ ...t, changed: Number(t.writes) - (before.get(t.name) ?? 0) }))
      .filter((t) => t.due && t.changed > 0)
      .sort((a, b) => b.changed - a.changed)
      .slice(0, PER_ROUND);
    for (const { name } of active) await client.query(`VACUUM (ANALYZE) ${name}`);
  };
  const timer = setInterval(() => {
    // A round still going (a large table) is let finish; a failed one (the server stopping) is skipped.
    running ??= round()
      .catch(() => undefined)
      .finally(() => {
        running = null;
      });
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
    await client.end().catch(() => undefined);
  };
}
