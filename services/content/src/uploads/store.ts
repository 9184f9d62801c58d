import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import multer, { MulterError } from 'multer';
import { CONTENT_MSG, formatMessage, type UploadAccept, type UploadedFile } from '@portal/contracts';
import { HttpError, badCharacters, badRequest, isStorableText, payloadTooLarge, unsupportedMedia } from '@portal/service-kit';
import type { UploadDoc, UploadKind } from '../models/upload';
import type { ByteRange, ObjectStore } from '../storage/objects';
import { SNIFF_BYTES, sniffMedia, type SniffedMedia } from './sniff';

/** What multer leaves on the request for each received file (it is written to disk already). */
interface ReceivedFile {
  fieldname: string;
  originalname: string;
  size: number;
  path: string;
}
type NodeHandler = (req: IncomingMessage, res: ServerResponse, done: (err?: unknown) => void) => void;

export interface UploadLimits {
  /** Scratch space for files being received (and where files stored before GridFS may still lie). */
  dir: string;
  maxBytes: number;
  maxFiles: number;
}

/** A stored file's name: a random UUID and an extension, nothing taken from the person's file name. */
export const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,10}$/;

const accepts = (accept: UploadAccept, media: SniffedMedia | null): boolean =>
  accept === 'any' || (media !== null && (accept === 'media' || media.kind === accept));

const extensionOf = (originalName: string): string => {
  const ext = path.extname(originalName).slice(1).toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : 'bin';
};

/** Names that claim to be a picture, a video or a sound: such a file must be one by its bytes. */
const MEDIA_EXTENSIONS = new Set(
  'png jpg jpeg jpe gif webp avif bmp ico mp4 m4v mov webm mkv avi mpg mpeg ogv 3gp mp3 m4a aac wav ogg oga opus flac aif aiff mid midi'.split(
    ' ',
  ),
);
/** A file whose name says media but whose bytes are not (an HTML page renamed x.png) is refused, even as a plain file. */
const namePretendsMedia = (originalName: string, media: SniffedMedia | null) =>
  media === null && MEDIA_EXTENSIONS.has(extensionOf(originalName));

async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Turns multer's and busboy's refusals into the upload errors of the error catalogue («Файл слишком большой…» and the like). */
function uploadError(err: unknown, field: string): HttpError {
  if (err instanceof MulterError) {
    switch (err.code) {
      case 'LIMIT_FILE_SIZE':
        return payloadTooLarge(CONTENT_MSG.uploadTooLarge);
      case 'LIMIT_FILE_COUNT':
        return payloadTooLarge(CONTENT_MSG.uploadTooMany);
      case 'LIMIT_UNEXPECTED_FILE':
        return badRequest(formatMessage(CONTENT_MSG.uploadWrongField, { field }), field);
      default:
        return badRequest(CONTENT_MSG.uploadFailed, field);
    }
  }
  if (err instanceof HttpError) return err;
  return badRequest(CONTENT_MSG.uploadFailed, field); // a malformed or cut-off multipart body
}

/**
 * Uploaded files in the object store (GridFS or S3: `storage/`), so any replica serves any file:
 * received to a scratch folder, checked by their content, then written under a random name. Their
 * descriptions live in the `uploads` collection.
 */
export class UploadStore {
  private readonly incoming: string;
  private readonly multer: multer.Multer;

  constructor(
    readonly limits: UploadLimits,
    readonly objects: ObjectStore,
  ) {
    this.incoming = path.join(limits.dir, '.incoming');
    this.multer = multer({
      storage: multer.diskStorage({
        destination: (_req, _file, done) => {
          mkdir(this.incoming, { recursive: true }).then(
            () => done(null, this.incoming),
            (err: Error) => done(err, this.incoming),
          );
        },
        filename: (_req, _file, done) => done(null, randomUUID()),
      }),
      limits: { fileSize: limits.maxBytes, files: limits.maxFiles, fields: 20, fieldSize: 64 * 1024 },
      // Browsers send file names as UTF-8; multer's default would garble Cyrillic names.
      defParamCharset: 'utf8',
    });
  }

  /** Writes a file from disk into the object store under `name`: whole, or not at all. */
  async put(name: string, file: string, contentType = 'application/octet-stream'): Promise<void> {
    await this.objects.put(name, createReadStream(file), contentType);
  }

  async has(name: string): Promise<boolean> {
    return (await this.objects.get(name)) !== null;
  }

  /** Reads a multipart request: one file in `file`, or up to maxFiles in `files`. */
  async receive(req: IncomingMessage, res: ServerResponse, field: 'file' | 'files'): Promise<ReceivedFile[]> {
    const handler = (field === 'file'
      ? this.multer.single(field)
      : this.multer.array(field, this.limits.maxFiles)) as unknown as NodeHandler;
    await new Promise<void>((resolve, reject) => handler(req, res, (err) => (err ? reject(uploadError(err, field)) : resolve())));
    const holder = req as IncomingMessage & { file?: ReceivedFile; files?: ReceivedFile[] };
    const files = field === 'file' ? (holder.file ? [holder.file] : []) : (holder.files ?? []);
    if (!files.length) throw badRequest(CONTENT_MSG.uploadMissing, field);
    return files;
  }

  /**
   * Keeps every file or none: each must be non-empty and, for a media block, an image, video or
   * audio by its content. The accepted ones move to their final names.
   */
  async keep(files: ReceivedFile[], accept: UploadAccept, uploadedBy: string): Promise<Array<Omit<UploadDoc, 'createdAt'>>> {
    try {
      const checked = await Promise.all(
        files.map(async (file) => {
          if (file.size === 0) throw badRequest(CONTENT_MSG.uploadEmpty, file.fieldname);
          // A name sent as `filename*=UTF-8''a%00b` arrives decoded, past the URL and JSON checks.
          if (!isStorableText(file.originalname)) throw badCharacters();
          const media = sniffMedia(await readHead(file.path));
          if (!accepts(accept, media) || namePretendsMedia(file.originalname, media))
            throw unsupportedMedia(CONTENT_MSG.uploadBadType);
          return { file, media };
        }),
      );
      const kept: Array<Omit<UploadDoc, 'createdAt'>> = [];
      for (const { file, media } of checked) {
        const name = `${randomUUID()}.${media?.ext ?? extensionOf(file.originalname)}`;
        const doc = {
          _id: name,
          originalName: path.basename(file.originalname).slice(0, 255),
          mimeType: media?.mimeType ?? 'application/octet-stream',
          kind: (media?.kind ?? 'file') as UploadKind,
          size: file.size,
          uploadedBy,
        };
        await this.put(name, file.path, doc.mimeType).catch(async (err: unknown) => {
          await this.remove([name, ...kept.map((k) => k._id)]);
          throw err;
        });
        kept.push(doc);
      }
      return kept;
    } finally {
      await this.discard(files);
    }
  }

  /** Removes scratch files (those already moved are gone from there anyway). */
  async discard(files: ReceivedFile[]): Promise<void> {
    await Promise.all(files.map((f) => rm(f.path, { force: true })));
  }

  /** Deletes stored files; one already gone is fine. */
  async remove(names: string[]): Promise<void> {
    await this.objects.remove(names);
  }

  /**
   * Scratch files older than `maxAgeMs` were left by a process that stopped mid-upload. Younger ones
   * may belong to another instance sharing the volume, so they stay.
   */
  async sweepIncoming(maxAgeMs = 60 * 60 * 1000): Promise<number> {
    const names = await readdir(this.incoming).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.incoming, name);
      const info = await stat(file).catch(() => null);
      if (info && Date.now() - info.mtimeMs > maxAgeMs) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  /** The stored bytes of a file, whole or a byte range (inclusive end); null when the store has no such file. */
  async read(name: string): Promise<{ size: number; stream: (range?: ByteRange) => NodeJS.ReadableStream } | null> {
    return this.objects.get(name);
  }
}

export const presentUpload = (u: Pick<UploadDoc, '_id' | 'originalName' | 'size' | 'mimeType'>): UploadedFile => ({
  url: `/api/files/${u._id}`,
  name: u._id,
  originalName: u.originalName,
  size: u.size,
  mimeType: u.mimeType,
});
