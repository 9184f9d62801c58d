import { lookup } from 'mime-types';
import { allKeys, type ByteRange, type ObjectStore } from '../storage/objects';
import type { CheckedPackage } from './validate';

/** What a package file is served as: by its extension, text in UTF-8. */
export function contentTypeOf(path: string): string {
  const type = lookup(path) || 'application/octet-stream';
  return /^text\/|javascript|json|xml/.test(type) && !type.includes('charset') ? `${type}; charset=utf-8` : type;
}

/** A package's files in the object store (`<packageId>/<path>`), so every replica serves every package. */
export class ScormFiles {
  constructor(readonly objects: ObjectStore) {}

  /** Writes every file of a checked package under `<packageId>/<path>`; on any failure removes what it wrote. */
  async put(packageId: string, checked: CheckedPackage): Promise<void> {
    const total = { bytes: 0 };
    try {
      for (const item of checked.zip.entries) {
        await this.objects.put(`${packageId}/${item.path}`, await checked.zip.read(item, total), contentTypeOf(item.path));
      }
    } catch (err) {
      await this.remove(packageId).catch(() => undefined);
      throw err;
    }
  }

  /** Deletes a package's files (none is fine); answers how many there were. */
  async remove(packageId: string): Promise<number> {
    const keys: string[] = [];
    for await (const listed of allKeys(this.objects, `${packageId}/`)) keys.push(listed.key);
    await this.objects.remove(keys);
    return keys.length;
  }

  /**
   * A page of the package ids that have files (in key order, after `startAfter`), each with the
   * time of its newest file seen, and the last key read: a sweep pages through the store with it.
   */
  async packagesWithFiles(
    startAfter: string | undefined,
    limit: number,
  ): Promise<{ packages: Map<string, Date>; lastKey?: string }> {
    const listed = await this.objects.list({ startAfter, limit });
    const packages = new Map<string, Date>();
    for (const { key, modifiedAt } of listed) {
      const id = key.split('/', 1)[0];
      const prev = packages.get(id);
      if (id && (!prev || prev < modifiedAt)) packages.set(id, modifiedAt);
    }
    return { packages, lastKey: listed.length === limit ? listed[listed.length - 1].key : undefined };
  }

  /** A file of a package, whole or a byte range (inclusive end); null when there is none. */
  async read(packageId: string, path: string) {
    const file = await this.objects.get(`${packageId}/${path}`);
    if (!file) return null;
    return {
      size: file.size,
      contentType: file.contentType === 'application/octet-stream' ? contentTypeOf(path) : file.contentType,
      stream: (range?: ByteRange) => file.stream(range),
      /** The whole file in memory (an HTML page, to put the bridge in). */
      async text(): Promise<string> {
        const chunks: Buffer[] = [];
        for await (const chunk of file.stream()) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString('utf8');
      },
    };
  }
}
