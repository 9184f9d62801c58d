import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { DEFAULT_POSTGRESQL_URL } from './store';

/** A database of its own on the store's PostgreSQL, for the tests of what the launcher installs there. */
export interface ScratchDatabase {
  url: string;
  /** Connected to it. */
  client: Client;
  /** Closes the client and drops the database. */
  drop(): Promise<void>;
}

async function connected(url: URL): Promise<Client> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  return client;
}

/**
 * Makes `<prefix>_<random>` on the PostgreSQL the test run's store uses (FERRETDB_POSTGRESQL_URL, as
 * the global setup sets it): what is installed per database (event triggers, planner costs) and
 * what acts on every table of a database is tried there, never in FerretDB's own.
 */
export async function scratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const server = new URL(process.env.FERRETDB_POSTGRESQL_URL || DEFAULT_POSTGRESQL_URL);
  const name = `${prefix}_${randomBytes(3).toString('hex')}`;
  const url = new URL(server);
  url.pathname = `/${name}`;
  const admin = await connected(server);
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const client = await connected(url);
  return {
    url: url.toString(),
    client,
    async drop() {
      await client.end().catch(() => undefined);
      const dropper = await connected(server);
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
