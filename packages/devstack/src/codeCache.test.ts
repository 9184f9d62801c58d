import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pruneCodeCache } from './codeCache';

let cacheDirectory: string;
beforeEach(() => {
  cacheDirectory = mkdtempSync(path.join(tmpdir(), 'code-cache-'));
});
afterEach(() => rmSync(cacheDirectory, { recursive: true, force: true }));

/** A code cache folder as jest's runtime writes it: entries under the first two letters of their key. */
const cacheOf = (name: string, entries: number, bytes = 1000) => {
  for (let i = 0; i < entries; i++) {
    const dir = path.join(cacheDirectory, name, String(i % 4).padStart(2, '0'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `key${i}`), Buffer.alloc(bytes));
  }
  return path.join(cacheDirectory, name);
};

describe("the jest runtime's code cache", () => {
  it('is kept while it is within its bound, with the rest of jest’s cache', () => {
    const current = cacheOf(`v8-code-cache-${process.versions.v8}`, 10);
    const transforms = cacheOf('jest-transform-cache-abc', 3);
    expect(pruneCodeCache(cacheDirectory, 20_000)).toEqual([]);
    expect([existsSync(path.join(current, '03', 'key3')), existsSync(transforms)]).toEqual([true, true]);
  });

  it('is emptied once it has grown past its bound, and the caches of other V8 versions are removed', () => {
    const current = cacheOf(`v8-code-cache-${process.versions.v8}`, 30);
    const older = cacheOf('v8-code-cache-10.2.154.26-node.26', 2);
    const transforms = cacheOf('jest-transform-cache-abc', 3);
    expect(pruneCodeCache(cacheDirectory, 20_000).sort()).toEqual([path.basename(current), path.basename(older)].sort());
    expect([existsSync(current), existsSync(older), existsSync(transforms)]).toEqual([false, false, true]);
  });

  it('is left alone when jest has no cache directory yet', () => {
    expect(pruneCodeCache(path.join(cacheDirectory, 'absent'))).toEqual([]);
  });
});
