import { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { CONTENT_MSG } from '@portal/contracts';
import { HttpError, unavailable } from '@portal/service-kit';
import type { ListOptions, ListedObject, ObjectStore, StoredObject } from './objects';

export interface S3Settings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style addresses (`<endpoint>/<bucket>/<key>`): what SeaweedFS, Ceph and most on-premises servers expect. */
  forcePathStyle: boolean;
  /** Where every key of this store starts (`files/`, `scorm/`): several stores share one bucket. */
  prefix: string;
}

/** S3 answers "no such object" as NoSuchKey (GET) or a bare 404 NotFound (HEAD). */
const isMissing = (err: unknown) =>
  err instanceof NoSuchKey ||
  err instanceof NotFound ||
  (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404;

/**
 * What the caller hears when the object storage fails: the portal's own refusals (a package too big,
 * found while its bytes streamed in) as they are; anything else, the storage down or refusing, as 503.
 */
const storageError = (err: unknown): HttpError =>
  err instanceof HttpError ? err : unavailable(CONTENT_MSG.fileStorageUnavailable);
const throwStorageError = (err: unknown): never => {
  throw storageError(err);
};

/** DeleteObjects takes at most 1,000 keys a call. */
const DELETE_BATCH = 1000;

/**
 * Objects in an S3-compatible bucket (AWS S3, Yandex Object Storage, SeaweedFS, Ceph): the production
 * backend at scale. Bytes are streamed through the service, which checks who may read each file
 * first (no signed URL leaves the service, so a link shared by a learner gives nobody the file).
 * A write is one PutObject or a multipart upload that is aborted on failure: a key is whole or absent.
 */
export class S3Objects implements ObjectStore {
  readonly kind = 's3';

  constructor(
    private readonly client: S3Client,
    private readonly settings: Pick<S3Settings, 'bucket' | 'prefix'>,
  ) {}

  static connect(settings: S3Settings): S3Client {
    return new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // A stopped server is told at once rather than retried for long: the request answers 503.
      maxAttempts: 2,
    });
  }

  private keyOf = (key: string) => `${this.settings.prefix}${key}`;

  async put(key: string, body: Readable, contentType: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.keyOf(key), Body: body, ContentType: contentType },
      leavePartsOnError: false,
    });
    await upload.done().catch(throwStorageError);
  }

  async get(key: string): Promise<StoredObject | null> {
    const Key = this.keyOf(key);
    const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key })).catch((err: unknown) => {
      if (isMissing(err)) return null;
      throw storageError(err);
    });
    if (!head) return null;
    const { client } = this;
    const { bucket } = this.settings;
    return {
      size: head.ContentLength ?? 0,
      contentType: head.ContentType ?? 'application/octet-stream',
      stream(range) {
        // The bytes are fetched when the stream is first read, so a caller that only wanted the size costs nothing.
        return readableOf(async () => {
          const answer = await client.send(
            new GetObjectCommand({ Bucket: bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
          );
          return answer.Body as Readable;
        });
      },
    };
  }

  async remove(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const answer = await this.client
        .send(
          new DeleteObjectsCommand({
            Bucket: this.settings.bucket,
            Delete: { Objects: batch.map((k) => ({ Key: this.keyOf(k) })), Quiet: true },
          }),
        )
        .catch(throwStorageError);
      const failed = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length) throw unavailable(CONTENT_MSG.fileStorageUnavailable);
    }
  }

  async list({ prefix = '', startAfter, limit }: ListOptions): Promise<ListedObject[]> {
    const answer = await this.client
      .send(
        new ListObjectsV2Command({
          Bucket: this.settings.bucket,
          Prefix: this.keyOf(prefix),
          StartAfter: startAfter === undefined ? undefined : this.keyOf(startAfter),
          MaxKeys: limit,
        }),
      )
      .catch(throwStorageError);
    return (answer.Contents ?? []).map((o) => ({
      key: (o.Key ?? '').slice(this.settings.prefix.length),
      modifiedAt: o.LastModified ?? new Date(0),
    }));
  }
}

/** A stream whose source is opened on its first read. */
const readableOf = (open: () => Promise<Readable>): Readable =>
  Readable.from(
    (async function* () {
      yield* await open();
    })(),
    { objectMode: false },
  );
