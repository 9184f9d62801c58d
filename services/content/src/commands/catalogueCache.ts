import { LRUCache } from 'lru-cache';
import type { Connection } from 'mongoose';
import type { CourseDoc } from '../models/course';
import { coalesce } from './coalesce';

/** The one document whose version moves with every write to the courses collection. */
const VERSIONS = 'catalogue_versions';
const COURSES = 'courses';

interface VersionDoc {
  _id: string;
  version: number;
}

/**
 * Moves the catalogue's version. Called by the course model's own middleware after every write to
 * a course (src/models/course.ts), so no command can forget it.
 */
export async function bumpCatalogueVersion(store: Connection): Promise<void> {
  await store.collection<VersionDoc>(VERSIONS).updateOne({ _id: COURSES }, { $inc: { version: 1 } }, { upsert: true });
}

async function catalogueVersion(store: Connection): Promise<number> {
  const doc = await store.collection<VersionDoc>(VERSIONS).findOne({ _id: COURSES });
  return doc?.version ?? 0;
}

export interface CataloguePage {
  rows: CourseDoc[];
  total: number;
}

interface Kept extends CataloguePage {
  version: number;
}

/**
 * A page of the course list (the courses of one filter, sort and page, and their total) is the same
 * for everyone who asks the same question until a course is written. Building it costs the store a
 * read of every matching course: FerretDB on PostgreSQL pushes down neither the sort nor the count
 * (../shared/FERRETDB.md). So pages are kept, keyed by the question, and stamped with the catalogue
 * version read before the page was read.
 *
 * Why it is correct, with any number of content processes: each request reads the version (one
 * lookup by _id) and takes a kept page only when its stamp is that version. Every write to a course
 * moves the version after the write; a page read after a version was read is at least as new as
 * that version, and any later write gives a later version. Per-person marks are never kept here.
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
