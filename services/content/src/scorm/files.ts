import { pipeline } from 'node:stream/promises';
import { lookup } from 'mime-types';
import { mongo, type Connection } from 'mongoose';
import type { CheckedPackage } from './validate';

/** The GridFS bucket of package files: `scorm.files` and `scorm.chunks` in the content database. */
export const SCORM_BUCKET = 'scorm';

/** What a package file is served as: by its extension, text in UTF-8. */
export function contentTypeOf(path: string): string {
  const type = lookup(path) || 'application/octet-stream';
  return /^text\/|javascript|json|xml/.test(type) && !type.includes('charset') ? `${type}; charset=utf-8` : type;
}

/** A package's files in the store, so every replica serves every package. */
export class ScormFiles {
  private bucketOnce: mongo.GridFSBucket | null = null;

  constructor(private readonly store: Connection) {}

  get bucket(): mongo.GridFSBucket {
    if (!this.store.db) throw new Error('store not connected');
    this.bucketOnce ??= new mongo.GridFSBucket(this.store.db, { bucketName: SCORM_BUCKET });
    return this.bucketOnce;
  }

  /** Writes every file of a checked package under `<packageId>/<path>`; on any failure removes what it wrote. */
  async put(packageId: string, checked: CheckedPackage): Promise<void> {
    const total = { bytes: 0 };
    try {
      for (const item of checked.zip.entries) {
        await pipeline(
          await checked.zip.read(item, total),
          this.bucket.openUploadStream(`${packageId}/${item.path}`, {
            metadata: { packageId, contentType: contentTypeOf(item.path) },
          }),
        );
      }
    } catch (err) {
      await this.remove(packageId);
      throw err;
    }
  }

  /** Deletes a package's files (none is fine). */
  async remove(packageId: string): Promise<number> {
    const files = await this.bucket.find({ 'metadata.packageId': packageId }, { projection: { _id: 1 } }).toArray();
    for (const file of files) {
      await this.bucket.delete(file._id).catch((err: unknown) => {
        if (!/FileNotFound|not found/i.test(String((err as Error)?.message))) throw err;
      });
    }
    return files.length;
  }

  /** The package ids that have files, with the time of their newest file. */
  async packagesWithFiles(): Promise<Map<string, Date>> {
    const files = await this.bucket.find({}, { projection: { 'metadata.packageId': 1, uploadDate: 1 } }).toArray();
    const seen = new Map<string, Date>();
    for (const f of files) {
      const id = String((f.metadata as { packageId?: string } | undefined)?.packageId ?? '');
      const prev = seen.get(id);
      if (id && (!prev || prev < f.uploadDate)) seen.set(id, f.uploadDate);
    }
    return seen;
  }

  /** A file of a package, whole or a byte range (inclusive end); null when there is none. */
  async read(packageId: string, path: string) {
    const [file] = await this.bucket
      .find({ filename: `${packageId}/${path}` })
      .limit(1)
      .toArray();
    if (!file) return null;
    return {
      size: file.length,
      contentType: String((file.metadata as { contentType?: string } | undefined)?.contentType ?? contentTypeOf(path)),
      stream: (range?: { start: number; end: number }) =>
        this.bucket.openDownloadStream(file._id, range ? { start: range.start, end: range.end + 1 } : {}),
      /** The whole file in memory (an HTML page, to put the bridge in). */
      async text(): Promise<string> {
        const chunks: Buffer[] = [];
        for await (const chunk of this.stream()) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString('utf8');
      },
    };
  }
}
