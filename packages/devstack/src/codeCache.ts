import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The folders of V8's code cache that jest's runtime (`jest.runtime.js`) keeps in jest's cache
 * directory, one per V8 version: `v8-code-cache-<version>`, each entry under the hash of a module's
 * source. A changed source leaves its old entry behind, so the folder only grows.
 */
const PREFIX = 'v8-code-cache-';

/** Past this the current folder is emptied at a run's start: a run refills the 15–50 MB it uses. */
export const CODE_CACHE_MAX_BYTES = 512 * 1024 * 1024;

const entriesOf = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** The bytes of the files in a folder and the folders under it. */
function bytesIn(dir: string): number {
  let bytes = 0;
  for (const name of entriesOf(dir)) {
    const entry = path.join(dir, name);
    const info = statSync(entry, { throwIfNoEntry: false });
    if (info?.isDirectory()) bytes += bytesIn(entry);
    else bytes += info?.size ?? 0;
  }
  return bytes;
}

/**
 * Removes the code caches of other V8 versions (a Node upgrade leaves them for good) and empties this
 * version's when it has grown past `maxBytes`. Another run reading it meanwhile only compiles anew.
 */
export function pruneCodeCache(cacheDirectory: string, maxBytes = CODE_CACHE_MAX_BYTES): string[] {
  const current = `${PREFIX}${process.versions.v8}`;
  const removed: string[] = [];
  for (const name of entriesOf(cacheDirectory)) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = path.join(cacheDirectory, name);
    if (name === current && bytesIn(dir) <= maxBytes) continue;
    rmSync(dir, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
