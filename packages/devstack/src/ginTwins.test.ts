import type { Client } from 'pg';
import { installGinTwins } from './ginTwins';
import { scratchDatabase, type ScratchDatabase } from './pgScratch';

// A database of its own: the triggers are per database, and FerretDB's own is in use.
let scratch: ScratchDatabase;
let db: Client;

/** The indexes of table `t`, by name. */
async function indexesOfT(): Promise<string[]> {
  const rows = await db.query("SELECT indexname FROM pg_indexes WHERE tablename = 't' ORDER BY indexname");
  return rows.rows.map((r: { indexname: string }) => r.indexname);
}

async function oidOf(index: string): Promise<string> {
  const rows = await db.query('SELECT $1::regclass::oid::text AS oid', [index]);
  return (rows.rows[0] as { oid: string }).oid;
}

beforeAll(async () => {
  scratch = await scratchDatabase('portal_twins');
  await installGinTwins(scratch.url);
  db = scratch.client;
  await db.query('CREATE TABLE t (_jsonb jsonb)');
});

afterAll(() => scratch?.drop());

describe('the GIN twins of FerretDB’s indexes', () => {
  it('gives an index on jsonb fields a twin that answers FerretDB’s equality, and drops the twin with its index', async () => {
    await db.query(`CREATE INDEX t_status ON t ((_jsonb -> 'status'), (_jsonb -> 'at'))`);
    const twin = `gin_${await oidOf('t_status')}_t`;
    expect(await indexesOfT()).toEqual([twin, 't_status']);
    const definition = await db.query('SELECT indexdef FROM pg_indexes WHERE indexname = $1', [twin]);
    expect((definition.rows[0] as { indexdef: string }).indexdef).toMatch(/USING gin/);

    await db.query('DROP INDEX t_status');
    expect(await indexesOfT()).toEqual([]);
  });

  it('leaves other indexes and their twins alone when one index is dropped', async () => {
    await db.query(`CREATE INDEX t_a ON t ((_jsonb -> 'a'))`);
    await db.query(`CREATE INDEX t_b ON t ((_jsonb -> 'b'))`);
    const twinB = `gin_${await oidOf('t_b')}_t`;
    await db.query('DROP INDEX t_a');
    expect(await indexesOfT()).toEqual([twinB, 't_b']);
    await db.query('DROP INDEX t_b');
  });

  it('removes at the next install a twin whose index was dropped before the drop trigger existed', async () => {
    await db.query('DROP EVENT TRIGGER portal_gin_twin_drop');
    await db.query(`CREATE INDEX t_old ON t ((_jsonb -> 'old'))`);
    const twin = `gin_${await oidOf('t_old')}_t`;
    await db.query('DROP INDEX t_old');
    expect(await indexesOfT()).toEqual([twin]);

    await installGinTwins(scratch.url);
    expect(await indexesOfT()).toEqual([]);
    await db.query(`CREATE INDEX t_new ON t ((_jsonb -> 'new'))`);
    await db.query('DROP INDEX t_new');
    expect(await indexesOfT()).toEqual([]);
  });

  it('are used for one document among a few hundred large ones, once the table is analyzed', async () => {
    await db.query('CREATE TABLE big (_jsonb jsonb)');
    await db.query(`CREATE INDEX big_id ON big ((_jsonb -> '_id'))`);
    // Documents the size of an attempt with its questions: stored out of line, in TOAST.
    await db.query(
      `INSERT INTO big SELECT jsonb_build_object('_id', i, 'questions',
         (SELECT jsonb_agg(md5(j::text || i::text)) FROM generate_series(1, 600) j)) FROM generate_series(1, 300) i`,
    );
    await db.query('ANALYZE big');
    const twin = `gin_${await oidOf('big_id')}_big`;
    const plan = await db.query(`EXPLAIN SELECT _jsonb FROM big WHERE _jsonb -> '_id' @> '42'`);
    expect(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')).toContain(`Bitmap Index Scan on ${twin}`);
  });
});
