import { open as openFile } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { SCORM_LIMITS, SCORM_MSG, formatMessage } from '@portal/contracts';
import { badRequest, payloadTooLarge, type HttpError } from '@portal/service-kit';

/** The limits a package is read under (SCORM_LIMITS unless a test narrows them). */
export type ZipLimits = Record<'maxFiles' | 'maxUnpackedBytes' | 'maxCompressionRatio' | 'maxManifestBytes', number>;

/** Entries bigger than this unpacked are held to the compression ratio one by one. */
const RATIO_FLOOR_BYTES = 1024 * 1024;
const MB = 1024 * 1024;

/** One file of the archive, its path checked. */
export interface PackageEntry {
  path: string;
  entry: Entry;
}

const refuse = (message: string) => badRequest(message, 'file');
const truncated = () => refuse(SCORM_MSG.truncated);
const bomb = (path: string) => refuse(formatMessage(SCORM_MSG.bombRatio, { path }));
const unpackedTooBig = (max: number): HttpError =>
  payloadTooLarge(formatMessage(SCORM_MSG.unpackedTooBig, { max: Math.round(max / MB) }));

/** Local file header or an empty archive's end record: what every zip starts with. */
async function looksLikeZip(file: string): Promise<boolean> {
  const handle = await openFile(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    const magic = head.subarray(0, bytesRead).toString('latin1');
    return magic === 'PK\x03\x04' || magic === 'PK\x05\x06';
  } finally {
    await handle.close();
  }
}

/** A path inside the package as it must be: relative, without `..`, not a drive. */
export const isUnsafePath = (path: string): boolean =>
  /^[/\\]/.test(path) || /^[a-z]:/i.test(path) || path.split(/[/\\]/).some((part) => part === '..') || path.includes('\0');

/** S_IFLNK in the Unix mode a zip keeps in the upper half of an entry's external attributes. */
const isLink = (entry: Entry) => ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;

const nameOf = (entry: Entry): string => {
  const raw = entry.fileName as unknown as Buffer | string;
  return typeof raw === 'string' ? raw : raw.toString('utf8');
};

/**
 * Passes an entry's bytes on while counting them: more than its header declared (a lying header),
 * more than the compression ratio allows, or more than the package's total refuses the package.
 */
export function countingStream(
  path: string,
  declared: number,
  compressed: number,
  limits: ZipLimits,
  total: { bytes: number },
): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      total.bytes += chunk.length;
      if (seen > declared) return done(bomb(path));
      if (seen > RATIO_FLOOR_BYTES && seen / Math.max(compressed, 1) > limits.maxCompressionRatio) return done(bomb(path));
      if (total.bytes > limits.maxUnpackedBytes) return done(unpackedTooBig(limits.maxUnpackedBytes));
      done(null, chunk);
    },
    // Fewer bytes than declared: the entry is cut off.
    flush(done) {
      done(seen < declared ? truncated() : null);
    },
  });
}

/** An open package archive: its checked entries, and streams of their bytes. */
export class PackageZip {
  private constructor(
    private readonly zip: ZipFile,
    readonly entries: PackageEntry[],
    readonly declaredBytes: number,
    private readonly limits: ZipLimits,
  ) {}

  /**
   * Opens a zip and checks what its central directory declares: that it is a zip at all and whole,
   * the file count, every path (relative, no `..`), no links, the declared unpacked size and
   * compression ratio. The bytes themselves are checked as they are read (`read`).
   */
  static async open(file: string, limits: ZipLimits = SCORM_LIMITS): Promise<PackageZip> {
    if (!(await looksLikeZip(file))) throw refuse(SCORM_MSG.notZip);
    const zip = await new Promise<ZipFile>((resolve, reject) =>
      // Names are checked here, with the package's own messages (yauzl's would refuse `..` in English);
      // sizes by countingStream (yauzl 2's own check stalls the stream on today's Node instead of failing it).
      yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false }, (err, z) =>
        err || !z ? reject(truncated()) : resolve(z),
      ),
    );
    try {
      if (zip.entryCount > limits.maxFiles)
        throw refuse(formatMessage(SCORM_MSG.tooManyFiles, { count: zip.entryCount, max: limits.maxFiles }));
      const entries: PackageEntry[] = [];
      let declared = 0;
      let compressed = 0;
      let largest = '';
      let largestBytes = -1;
      await new Promise<void>((resolve, reject) => {
        zip.on('error', () => reject(truncated()));
        zip.on('end', () => resolve());
        zip.on('entry', (entry: Entry) => {
          const path = nameOf(entry);
          if (isUnsafePath(path)) return reject(refuse(formatMessage(SCORM_MSG.unsafePath, { path })));
          if (isLink(entry)) return reject(refuse(formatMessage(SCORM_MSG.linkEntry, { path })));
          if (!path.endsWith('/')) {
            declared += entry.uncompressedSize;
            compressed += entry.compressedSize;
            if (entry.uncompressedSize > largestBytes) [largest, largestBytes] = [path, entry.uncompressedSize];
            if (declared > limits.maxUnpackedBytes) return reject(unpackedTooBig(limits.maxUnpackedBytes));
            if (
              entry.uncompressedSize > RATIO_FLOOR_BYTES &&
              entry.uncompressedSize / Math.max(entry.compressedSize, 1) > limits.maxCompressionRatio
            )
              return reject(bomb(path));
            entries.push({ path: path.replace(/\\/g, '/'), entry });
          }
          zip.readEntry();
        });
        zip.readEntry();
      });
      if (declared > RATIO_FLOOR_BYTES && declared / Math.max(compressed, 1) > limits.maxCompressionRatio) throw bomb(largest);
      return new PackageZip(zip, entries, declared, limits);
    } catch (err) {
      zip.close();
      throw err;
    }
  }

  /** An entry's bytes, counted against the limits as they are inflated (a lying header does not pass). */
  async read({ path, entry }: PackageEntry, total: { bytes: number }): Promise<Readable> {
    const raw = await new Promise<Readable>((resolve, reject) =>
      this.zip.openReadStream(entry, (err, stream) => (err || !stream ? reject(truncated()) : resolve(stream))),
    );
    const counted = countingStream(path, entry.uncompressedSize, entry.compressedSize, this.limits, total);
    // An inflate error (a cut-off or damaged archive) is the package's refusal.
    raw.on('error', () => counted.destroy(truncated()));
    // A refused entry stops being read (yauzl's destroy releases its file reads).
    counted.on('error', () => raw.destroy());
    return raw.pipe(counted);
  }

  /** An entry read whole into memory (the manifest), at most `max` bytes. */
  async readAll(item: PackageEntry, total: { bytes: number }, max: number, tooBig: () => Error): Promise<Buffer> {
    if (item.entry.uncompressedSize > max) throw tooBig();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of await this.read(item, total)) {
      size += (chunk as Buffer).length;
      if (size > max) throw tooBig();
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  /** Reads every entry to its end without keeping it: the real bytes against the limits. */
  async readThrough(skip: PackageEntry | undefined, total: { bytes: number }): Promise<void> {
    for (const item of this.entries) {
      if (item === skip) continue;
      for await (const _chunk of await this.read(item, total)) {
        // counted by the stream
      }
    }
  }

  close(): void {
    this.zip.close();
  }
}
