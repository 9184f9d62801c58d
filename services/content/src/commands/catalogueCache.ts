import { bumpVersion, VersionedCache } from '@portal/service-kit';
import type { Connection } from 'mongoose';
import type { CourseDoc } from '../models/course';

/** Where the catalogue's version has always been kept (a store upgraded keeps its stamps valid). */
const CATALOGUE = { name: 'courses', collection: 'catalogue_versions' } as const;

/**
 * Moves the catalogue's version. Called by the course model's own middleware after every write to
 * a course (src/models/course.ts), so no command can forget it.
 */
export const bumpCatalogueVersion = (store: Connection): Promise<void> =>
  bumpVersion(store, CATALOGUE.name, CATALOGUE.collection);

export interface CataloguePage {
  rows: CourseDoc[];
  total: number;
}

/**
 * A page of the course list (the courses of one filter, sort and page, and their total) is the same
 * for everyone who asks the same question until a course is written. Building it costs the store a
 * read of every matching course: FerretDB on PostgreSQL pushes down neither the sort nor the count
 * (docs/FERRETDB.md). So pages are kept, keyed by the question, and stamped with the catalogue
 * version (VersionedCache). Per-person marks are never kept here.
 */
export type CatalogueCache = VersionedCache<CataloguePage>;

export const catalogueCache = (store: Connection): CatalogueCache => new VersionedCache(store, CATALOGUE);
