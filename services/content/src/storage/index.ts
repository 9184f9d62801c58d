import type { Connection } from 'mongoose';
import type { ContentConfig } from '../config';
import { GridFsObjects } from './gridfs';
import type { ObjectStore } from './objects';
import { S3Objects } from './s3';

export type { ObjectStore } from './objects';

/** The GridFS bucket of uploaded files (`files.files`, `files.chunks`), or the key prefix `files/` in S3. */
export const FILES_BUCKET = 'files';
/** Package files: the GridFS bucket `scorm`, or the key prefix `scorm/` in S3. */
export const PACKAGES_BUCKET = 'scorm';

/** The object stores of the content service: uploads (lesson files and learners' answer files) and SCORM packages. */
export interface ObjectStores {
  files: ObjectStore;
  packages: ObjectStore;
}

type StorageConfig = Pick<
  ContentConfig,
  | 'STORAGE_BACKEND'
  | 'S3_ENDPOINT'
  | 'S3_REGION'
  | 'S3_BUCKET'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

/** GridFS in the store (the default, nothing more to run) or one S3 bucket with a prefix per kind. */
export function objectStoresOf(config: StorageConfig, store: Connection): ObjectStores {
  if (config.STORAGE_BACKEND === 'gridfs')
    return { files: new GridFsObjects(store, FILES_BUCKET), packages: new GridFsObjects(store, PACKAGES_BUCKET) };
  const settings = {
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    bucket: config.S3_BUCKET ?? '',
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  };
  const client = S3Objects.connect({ ...settings, prefix: '' });
  return {
    files: new S3Objects(client, { bucket: settings.bucket, prefix: `${FILES_BUCKET}/` }),
    packages: new S3Objects(client, { bucket: settings.bucket, prefix: `${PACKAGES_BUCKET}/` }),
  };
}
