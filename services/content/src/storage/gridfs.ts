import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { mongo, type Connection } from 'mongoose';
import { escapeRegExp } from '@portal/service-kit';
import type { ListOptions, ListedObject, ObjectStore, StoredObject } from './objects';

/** The driver's answer when a GridFS file is not there (deleting twice is fine). */
const isFileNotFound = (err: unknown) => /FileNotFound|not found/i.test(String((err as Error)?.message));

/** GridFS takes any id; the driver's types say ObjectId only. */
const gridId = (key: string) => key as unknown as mongo.ObjectId;

type GridFile = mongo.GridFSFile & { metadata?: { contentType?: string } };

/**
 * Objects in a GridFS bucket of the store (`<bucket>.files`, `<bucket>.chunks`): the key is the
 * file's name, and its id too for objects written here (older package files have ObjectId ids and
 * are found by name). A write cut off midway removes its chunks.
 */
export class GridFsObjects implements ObjectStore {
  readonly kind = 'gridfs';
  private bucketOnce: mongo.GridFSBucket | null = null;

  constructor(
    private readonly store: Connection,
    readonly bucketName: string,
  ) {}

  /** Made on first use: the connection's database handle exists once it is open. */
  get bucket(): mongo.GridFSBucket {
    if (!this.store.db) throw new Error('store not connected');
    this.bucketOnce ??= new mongo.GridFSBucket(this.store.db, { bucketName: this.bucketName });
    return this.bucketOnce;
  }

  async put(key: string, body: Readable, contentType: string): Promise<void> {
    const upload = this.bucket.openUploadStreamWithId(gridId(key), key, { metadata: { contentType } });
    try {
      await pipeline(body, upload);
    } catch (err) {
      await upload.abort().catch(() => undefined);
      await this.remove([key]).catch(() => undefined);
      throw err;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const [file] = (await this.bucket.find({ filename: key }).limit(1).toArray()) as GridFile[];
    if (!file) return null;
    return {
      size: file.length,
      contentType: file.metadata?.contentType ?? 'application/octet-stream',
      // GridFS reads only the chunks a range covers; its `end` is exclusive.
      stream: (range) => this.bucket.openDownloadStream(file._id, range ? { start: range.start, end: range.end + 1 } : {}),
    };
  }

  async remove(keys: readonly string[]): Promise<void> {
    if (!keys.length) return;
    const files = await this.bucket
      .find({ filename: { $in: [...keys] } })
      .project<{ _id: mongo.ObjectId }>({ _id: 1 })
      .toArray();
    for (const file of files) {
      await this.bucket.delete(file._id).catch((err: unknown) => {
        if (!isFileNotFound(err)) throw err;
      });
    }
  }

  async list({ prefix = '', startAfter, limit }: ListOptions): Promise<ListedObject[]> {
    const filename: Record<string, unknown> = {};
    if (prefix) filename.$regex = `^${escapeRegExp(prefix)}`;
    if (startAfter !== undefined) filename.$gt = startAfter;
    const files = await this.bucket
      .find(Object.keys(filename).length ? { filename } : {}, { sort: { filename: 1 }, limit })
      .project<{ filename: string; uploadDate: Date }>({ filename: 1, uploadDate: 1 })
      .toArray();
    return files.map((f) => ({ key: f.filename, modifiedAt: f.uploadDate }));
  }
}
