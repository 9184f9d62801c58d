import type { Readable } from 'node:stream';

/** A byte range of a stored object, both ends inclusive (as HTTP's Range says it). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A stored object as a reader sees it: its size and type, and its bytes, whole or a range, read only when asked. */
export interface StoredObject {
  size: number;
  contentType: string;
  stream(range?: ByteRange): Readable;
}

/** An object's key and when it was written, as a listing gives them. */
export interface ListedObject {
  key: string;
  modifiedAt: Date;
}

/** Keys in ascending order after `startAfter`, under `prefix`, at most `limit`. */
export interface ListOptions {
  prefix?: string;
  startAfter?: string;
  limit: number;
}

/**
 * Where the portal keeps file bytes (uploads, learners' answer files, SCORM packages): one interface,
 * two real backends. GridFS (the store itself) is the embedded default; an S3-compatible service is
 * for production at scale. Keys are paths (`<uuid>.png`, `<packageId>/index.html`); every replica
 * reads every key, so nothing lives on one machine's disk.
 */
export interface ObjectStore {
  /** Which backend: named in logs and /health. */
  readonly kind: 'gridfs' | 's3';
  /**
   * Writes the object whole or not at all: a write cut off (the backend stopped, the source failed)
   * leaves no object under the key, and rejects.
   */
  put(key: string, body: Readable, contentType: string): Promise<void>;
  /** The object, or null when there is none under the key. */
  get(key: string): Promise<StoredObject | null>;
  /** Deletes objects; a key with nothing under it is fine. */
  remove(keys: readonly string[]): Promise<void>;
  /** A page of keys: a sweep pages through them. */
  list(options: ListOptions): Promise<ListedObject[]>;
}

/** Every key under a prefix, page by page (a package's files: a few thousand at most). */
export async function* allKeys(objects: ObjectStore, prefix: string, pageSize = 1000): AsyncGenerator<ListedObject> {
  let startAfter: string | undefined;
  for (;;) {
    const page = await objects.list({ prefix, startAfter, limit: pageSize });
    yield* page;
    if (page.length < pageSize) return;
    startAfter = page[page.length - 1].key;
  }
}
