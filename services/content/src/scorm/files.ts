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

  /** The package ids that have files, with the time of their newest file. */
  async packagesWithFiles(): Promise<Map<string, Date>> {
    const seen = new Map<string, Date>();
    for await (const { key, modifiedAt } of allKeys(this.objects, '')) {
      const id = key.split('/', 1)[0];
      const prev = seen.get(id);
      if (id && (!prev || prev < modifiedAt)) seen.set(id, modifiedAt);
    }
    return seen;
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
