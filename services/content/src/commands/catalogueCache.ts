import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Connection } from 'mongoose';
import type { CourseDoc } from '../models/course';
import { coalesce } from './coalesce';

/** The one document whose version moves with every write to the courses collection. */
const VERSIONS = 'catalogue_versions';
const COURSES = 'courses';

interface VersionDoc {
  _id: string;
  version: string;
}

/**
 * Moves the catalogue's version. Called by the course model's own middleware after every write to
 * a course (src/models/course.ts), so no command can forget it.
 *
 * The version is a value never used before, set outright, not a counter moved by `$inc`: FerretDB
 * runs an update as a read and then a write, so concurrent `$inc`s lose increments (100 at once
 * left 3) and a slow one can even put back an older number, which would bring back a page kept
 * before a later write. A fresh value is different from every stamp of a page read before it.
 */
export async function bumpCatalogueVersion(store: Connection): Promise<void> {
  const versions = store.collection<VersionDoc>(VERSIONS);
  try {
    await versions.updateOne({ _id: COURSES }, { $set: { version: randomUUID() } }, { upsert: true });
  } catch (err) {
    // Two first bumps of a fresh database both inserted; the loser's value is set over the winner's.
    if ((err as { code?: number }).code !== 11000) throw err;
    await versions.updateOne({ _id: COURSES }, { $set: { version: randomUUID() } });
  }
}

async function catalogueVersion(store: Connection): Promise<string> {
  const doc = await store.collection<VersionDoc>(VERSIONS).findOne({ _id: COURSES });
  return String(doc?.version ?? 0);
}

export interface CataloguePage {
  rows: CourseDoc[];
  total: number;
}

interface Kept extends CataloguePage {
  version: string;
}

/**
 * A page of the course list (the courses of one filter, sort and page, and their total) is the same
 * for everyone who asks the same question until a course is written. Building it costs the store a
 * read of every matching course: FerretDB on PostgreSQL pushes down neither the sort nor the count
 * (docs/FERRETDB.md). So pages are kept, keyed by the question, and stamped with the catalogue
 * version read before the page was read.
 *
 * Why it is correct, with any number of content processes: each request reads the version (one
 * lookup by _id) and takes a kept page only when its stamp is that version. Every write to a course
 * moves the version after the write; a page read after a version was read is at least as new as
 * that version, and any later write sets a version no page was ever stamped with. Per-person marks are never kept here.
 * A version that could not be moved (the store failing just after a write) is covered by the
 * pages' time to live.
 */
export class CatalogueCache {
  private readonly pages: LRUCache<string, Kept>;
  /** Pages being read: concurrent first askers of one question share one store query. */
  private readonly reading = new Map<string, Promise<Kept>>();

  constructor(
    private readonly store: Connection,
    { maxPages = 500, ttlMs = 60_000 }: { maxPages?: number; ttlMs?: number } = {},
  ) {
    this.pages = new LRUCache<string, Kept>({ max: maxPages, ttl: ttlMs });
  }

  async page(question: unknown, read: () => Promise<CataloguePage>): Promise<CataloguePage> {
    const version = await catalogueVersion(this.store);
    const key = `${version}|${JSON.stringify(question, (_, value: unknown) => (value instanceof RegExp ? String(value) : value))}`;
    const kept = this.pages.get(key);
    if (kept) return kept;
    return coalesce(this.reading, key, async () => {
      const stamped = { ...(await read()), version };
      this.pages.set(key, stamped);
      return stamped;
    });
  }
}
