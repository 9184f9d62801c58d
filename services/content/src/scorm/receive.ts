import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import multer, { MulterError } from 'multer';
import { CONTENT_MSG, SCORM_LIMITS, SCORM_MSG, formatMessage } from '@portal/contracts';
import { HttpError, badRequest, payloadTooLarge } from '@portal/service-kit';

type NodeHandler = (req: IncomingMessage, res: ServerResponse, done: (err?: unknown) => void) => void;

/** A package received to a scratch file (yauzl reads a zip by random access, not as a stream). */
export interface ReceivedPackage {
  path: string;
  originalName: string;
  size: number;
}

const MB = 1024 * 1024;

/**
 * Receives the one file of a package upload into the uploads' scratch folder (`.incoming`, whose
 * leftovers the start of any replica sweeps), at most SCORM_LIMITS.maxZipBytes.
 */
export class PackageReceiver {
  private readonly multer: multer.Multer;

  constructor(
    readonly incoming: string,
    readonly maxBytes: number = SCORM_LIMITS.maxZipBytes,
  ) {
    this.multer = multer({
      storage: multer.diskStorage({
        destination: (_req, _file, done) => {
          mkdir(incoming, { recursive: true }).then(
            () => done(null, incoming),
            (err: Error) => done(err, incoming),
          );
        },
        filename: (_req, _file, done) => done(null, `scorm-${randomUUID()}`),
      }),
      limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 64 * 1024 },
      defParamCharset: 'utf8',
    });
  }

  static forUploadDir(uploadDir: string): PackageReceiver {
    return new PackageReceiver(path.join(uploadDir, '.incoming'));
  }

  /** The received file; multer removes a partly written one itself when it refuses the request. */
  async receive(req: IncomingMessage, res: ServerResponse): Promise<ReceivedPackage> {
    const handler = this.multer.single('file') as unknown as NodeHandler;
    await new Promise<void>((resolve, reject) => handler(req, res, (err) => (err ? reject(this.refusal(err)) : resolve())));
    const file = (req as IncomingMessage & { file?: { path: string; originalname: string; size: number } }).file;
    if (!file) throw badRequest(CONTENT_MSG.uploadMissing, 'file');
    return { path: file.path, originalName: path.basename(file.originalname).slice(0, 255), size: file.size };
  }

  async discard(file: ReceivedPackage | null): Promise<void> {
    if (file) await rm(file.path, { force: true });
  }

  private refusal(err: unknown): HttpError {
    if (err instanceof MulterError) {
      if (err.code === 'LIMIT_FILE_SIZE')
        return payloadTooLarge(formatMessage(SCORM_MSG.tooBig, { max: Math.round(this.maxBytes / MB) }));
      if (err.code === 'LIMIT_UNEXPECTED_FILE' || err.code === 'LIMIT_FILE_COUNT')
        return badRequest(formatMessage(CONTENT_MSG.uploadWrongField, { field: 'file' }), 'file');
      return badRequest(CONTENT_MSG.uploadFailed, 'file');
    }
    if (err instanceof HttpError) return err;
    return badRequest(CONTENT_MSG.uploadFailed, 'file');
  }
}
