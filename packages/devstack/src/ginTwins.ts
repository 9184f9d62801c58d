/**
 * FerretDB v1.24 on PostgreSQL pushes an equality filter down as `(_jsonb -> 'field') @> value`, but
 * the indexes it creates for a collection are btree indexes on `(_jsonb -> 'field')`, which that
 * containment operator cannot use: every query is a sequential scan of the whole table (measured:
 * 37 ms for one `_id` among 100,000 documents). A GIN index on the same expressions answers `@>`
 * (0.6 ms for the same lookup).
 *
 * So the launcher installs, in FerretDB's own PostgreSQL database, an event trigger that gives every
 * btree index FerretDB creates on jsonb fields a GIN twin over the same expressions, and twins the
 * indexes that already exist. Nothing in the services knows about it: on MongoDB the services'
 * indexes are used as they are. Dropping a collection drops its twins with its table; dropping an
 * index (a migration's `dropIndex`) drops its twin through a second trigger, since a twin left behind
 * would cost every write to the table as much as the index did. A twin is named after its index's
 * oid (`gin_<oid>_<table>`), which is how the drop finds it.
 */
const TWIN_FUNCTION = `
CREATE OR REPLACE FUNCTION portal_gin_twin_of(index_oid oid) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  info record;
  expressions text;
BEGIN
  SELECT i.indrelid, n.nspname, c.relname, am.amname, pg_get_expr(i.indexprs, i.indrelid) AS exprs
    INTO info
    FROM pg_index i
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_am am ON am.oid = ic.relam
    JOIN pg_class c ON c.oid = i.indrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE i.indexrelid = index_oid;
  IF info IS NULL OR info.amname <> 'btree' OR info.exprs IS NULL OR info.exprs NOT LIKE '%_jsonb ->%'
     OR info.relname LIKE '\\_ferretdb\\_%' THEN
    RETURN;
  END IF;
  expressions := info.exprs;
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I.%I USING gin (%s)',
                 left('gin_' || index_oid::text || '_' || info.relname, 63), info.nspname, info.relname, expressions);
END
$fn$;

CREATE OR REPLACE FUNCTION portal_gin_twin() RETURNS event_trigger LANGUAGE plpgsql AS $fn$
DECLARE
  command record;
BEGIN
  FOR command IN SELECT objid FROM pg_event_trigger_ddl_commands() WHERE command_tag = 'CREATE INDEX' LOOP
    PERFORM portal_gin_twin_of(command.objid);
  END LOOP;
END
$fn$;

CREATE OR REPLACE FUNCTION portal_gin_twin_drop() RETURNS event_trigger LANGUAGE plpgsql AS $fn$
DECLARE
  dropped record;
  twin record;
BEGIN
  FOR dropped IN SELECT objid FROM pg_event_trigger_dropped_objects() WHERE object_type = 'index' LOOP
    FOR twin IN SELECT n.nspname, c.relname
                  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE c.relkind = 'i' AND c.relname LIKE 'gin\\_' || dropped.objid::text || '\\_%' LOOP
      EXECUTE format('DROP INDEX IF EXISTS %I.%I', twin.nspname, twin.relname);
    END LOOP;
  END LOOP;
END
$fn$;
`;

/**
 * What reading one field of a stored document costs, told to the planner. FerretDB keeps a document
 * in one jsonb column, and a document past about 2 KB (an attempt with its questions: 21 KB) lives
 * out of line, compressed, in TOAST; `_jsonb -> 'field'` takes the whole value back out to read one
 * field. The planner counts that operator at its default cost of 1 (one `cpu_operator_cost`), and the
 * table's own pages are few (950 attempts: 33 pages, their documents 7 MB in TOAST), so once a table is
 * analyzed it scans a few hundred rows rather than use the GIN twin: 3.1 ms against 0.09 ms for one
 * `_id` among 300 such documents. At 100, a filter on each row costs what it does, and the twins are
 * used; a table of a few rows is still scanned. `pg_proc` is per database: only FerretDB's is changed.
 */
const PLANNER_COSTS = 'ALTER FUNCTION jsonb_object_field(jsonb, text) COST 100';

/** Twins whose index is gone (dropped before the drop trigger was installed). */
const DROP_ORPHANS = `
DO $do$
DECLARE
  twin record;
BEGIN
  FOR twin IN SELECT n.nspname, c.relname
                FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE c.relkind = 'i' AND c.relname ~ '^gin_[0-9]+_'
                 AND NOT EXISTS (SELECT 1 FROM pg_index i
                                  WHERE i.indexrelid = substring(c.relname from '^gin_([0-9]+)_')::oid) LOOP
    EXECUTE format('DROP INDEX IF EXISTS %I.%I', twin.nspname, twin.relname);
  END LOOP;
END
$do$;
`;

const TWIN_EXISTING = `
SELECT portal_gin_twin_of(i.indexrelid)
  FROM pg_index i
  JOIN pg_class ic ON ic.oid = i.indexrelid
  JOIN pg_am am ON am.oid = ic.relam
 WHERE am.amname = 'btree' AND i.indexprs IS NOT NULL
`;

/** Installs (idempotently) the GIN-twin event triggers in the database of `url`, the planner's cost of reading a field, drops orphaned twins, and twins what exists. */
export async function installGinTwins(url: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(TWIN_FUNCTION);
    const found = await client.query("SELECT 1 FROM pg_event_trigger WHERE evtname = 'portal_gin_twin'");
    if (!found.rowCount) {
      await client.query(
        "CREATE EVENT TRIGGER portal_gin_twin ON ddl_command_end WHEN TAG IN ('CREATE INDEX') EXECUTE FUNCTION portal_gin_twin()",
      );
    }
    const dropTrigger = await client.query("SELECT 1 FROM pg_event_trigger WHERE evtname = 'portal_gin_twin_drop'");
    if (!dropTrigger.rowCount) {
      await client.query(
        "CREATE EVENT TRIGGER portal_gin_twin_drop ON sql_drop WHEN TAG IN ('DROP INDEX') EXECUTE FUNCTION portal_gin_twin_drop()",
      );
    }
    await client.query(PLANNER_COSTS);
    await client.query(DROP_ORPHANS);
    await client.query(TWIN_EXISTING);
  } finally {
    await client.end().catch(() => undefined);
  }
}
