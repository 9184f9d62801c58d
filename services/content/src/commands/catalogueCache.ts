import { VersionedCache } from '@portal/service-kit';
import type { Connection } from 'mongoose';
import { CATALOGUE_VERSION, type CourseDoc } from '../models/course';

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

export const catalogueCache = (store: Connection): CatalogueCache => new VersionedCache(store, CATALOGUE_VERSION);
