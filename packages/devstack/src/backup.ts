import { createReadStream, createWriteStream, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { BSON, MongoClient, type Db, type Document } from 'mongodb';
import { SERVICE_NAMES, type ServiceName } from '@portal/contracts';
import { ROOT } from './util';

/**
 * Backups of the whole portal: every service's database (`<DB_PREFIX><service>`, as the services
 * name theirs), uploaded files included, since they live in the content database's GridFS bucket.
 *
 * The archive is gzipped NDJSON, one canonical Extended JSON value a line, so ObjectIds, dates,
 * binaries and number types come back as they were:
 *   {"kind":"manifest","format":…,"portalVersion":…,"createdAt":…,"dbPrefix":…,"services":[…]}
 *   {"kind":"collection","service":"content","name":"files.chunks","options":{…},"indexes":[…]}
 *   {"kind":"document","document":{…}}          (each document of the collection above)
 *   …
 *   {"kind":"end","counts":{"content.files.chunks":3,…}}
 * Collections are read with cursors and written a batch at a time: memory does not grow with the data.
 */
export const BACKUP_FORMAT = 'portal-backup/1';

/** A refusal the operator acts on; its message is for a person (Russian, as the portal speaks). */
export class BackupError extends Error {}

interface Manifest {
  kind: 'manifest';
  format: string;
  portalVersion: string;
  createdAt: Date;
  dbPrefix: string;
  services: ServiceName[];
}
interface CollectionHeader {
  kind: 'collection';
  service: ServiceName;
  name: string;
  options: Document;
  indexes: Document[];
}
interface DocumentLine {
  kind: 'document';
  document: Document;
}
interface End {
  kind: 'end';
  counts: Record<string, number>;
}
type Line = Manifest | CollectionHeader | DocumentLine | End;

/** Where a collection's count is kept in the end line: `<service>.<collection>`. */
const countKey = (service: string, collection: string) => `${service}.${collection}`;

/** The service's database under a prefix, as the service kit names it (`databaseName`). */
const databaseOf = (dbPrefix: string, service: ServiceName) => `${dbPrefix}${service}`;

const portalVersion = (): string =>
  (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const toLine = (line: Line) => `${BSON.EJSON.stringify(line, { relaxed: false })}\n`;

/** The collections that hold data (not views, not the server's own `system.*`). */
async function dataCollections(db: Db): Promise<Array<{ name: string; options: Document }>> {
  const listed = await db.listCollections({}, { nameOnly: false }).toArray();
  return listed
    .filter((c) => (c.type ?? 'collection') === 'collection' && !c.name.startsWith('system.'))
    .map((c) => ({ name: c.name, options: (c as { options?: Document }).options ?? {} }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Index definitions as createIndexes takes them back: without `_id_` and the server's own fields. */
async function indexDefinitions(db: Db, collection: string): Promise<Document[]> {
  const indexes = await db.collection(collection).listIndexes().toArray();
  return indexes.filter((ix) => ix.name !== '_id_').map(({ v: _v, ns: _ns, ...definition }) => definition);
}

export interface BackupOptions {
  mongoUrl: string;
  dbPrefix: string;
  /** The archive to write; it appears under this name only once complete. */
  file: string;
  /** Documents fetched from the store per round trip. */
  batchSize?: number;
}

export interface BackupSummary {
  file: string;
  counts: Record<string, number>;
  bytes: number;
}

/** Writes every service's database to one archive (see the format above). */
export async function backup({ mongoUrl, dbPrefix, file, batchSize = 500 }: BackupOptions): Promise<BackupSummary> {
  mkdirSync(path.dirname(file), { recursive: true });
  const client = await MongoClient.connect(mongoUrl, { serverSelectionTimeoutMS: 5000 });
  const counts: Record<string, number> = {};
  async function* lines(): AsyncGenerator<string> {
    yield toLine({
      kind: 'manifest',
      format: BACKUP_FORMAT,
      portalVersion: portalVersion(),
      createdAt: new Date(),
      dbPrefix,
      services: [...SERVICE_NAMES],
    });
    for (const service of SERVICE_NAMES) {
      const db = client.db(databaseOf(dbPrefix, service));
      for (const { name, options } of await dataCollections(db)) {
        yield toLine({ kind: 'collection', service, name, options, indexes: await indexDefinitions(db, name) });
        let count = 0;
        // No sort: the store would have to sort the whole collection before the first document.
        for await (const document of db.collection(name).find({}, { batchSize })) {
          yield toLine({ kind: 'document', document });
          count++;
        }
        counts[countKey(service, name)] = count;
      }
    }
    yield toLine({ kind: 'end', counts });
  }

  const partial = `${file}.partial`;
  try {
    // Readable.from waits for the gzip stream to drain: a few lines and the cursor's batch are in memory.
    await pipeline(Readable.from(lines()), createGzip(), createWriteStream(partial));
    renameSync(partial, file);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    await client.close();
  }
  return { file, counts, bytes: statSync(file).size };
}

export interface RestoreOptions {
  mongoUrl: string;
  /** The databases to restore into: `<dbPrefix><service>`, whatever prefix the archive was made with. */
  dbPrefix: string;
  file: string;
  /** Replace the portal's databases even when they hold data. */
  force?: boolean;
  /** Documents per insert; a batch also ends at `batchBytes` of archive text. */
  batchDocuments?: number;
  batchBytes?: number;
}

export interface RestoreSummary {
  counts: Record<string, number>;
  /** Databases that held data and were replaced (only with `force`). */
  replaced: string[];
}

const notAnArchive = (file: string, why: string) =>
  new BackupError(`${file} — не архив резервной копии портала (${why}). Укажите файл, записанный командой npm run backup.`);

/**
 * Every line of a gzipped archive, one at a time; a file that is not gzip is refused clearly. The
 * stream is read a chunk at a time as lines are taken (readline's iterator would queue up to a
 * thousand lines ahead, and a GridFS chunk's line is a third of a megabyte).
 */
async function* archiveLines(file: string): AsyncGenerator<string> {
  const gunzip = createGunzip();
  const source = createReadStream(file);
  source.on('error', (err) => gunzip.destroy(err));
  // A text decoder on the stream: a character split between two chunks is joined again.
  const text = source.pipe(gunzip).setEncoding('utf8');
  let rest = '';
  try {
    for await (const chunk of text as AsyncIterable<string>) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line) yield line;
    }
    if (rest) yield rest;
  } catch (err) {
    const { code } = err as NodeJS.ErrnoException;
    if (code === 'ENOENT') throw new BackupError(`Файл ${file} не найден.`);
    if (code === 'Z_DATA_ERROR') throw notAnArchive(file, 'это не gzip');
    if (code === 'Z_BUF_ERROR')
      throw new BackupError(`Архив ${file} обрезан: он кончается на середине. Восстановление прервано.`);
    throw err;
  } finally {
    source.destroy();
    gunzip.destroy();
  }
}

interface Held {
  database: string;
  collection: string;
  count: number;
}

/** The collections of the named databases that hold documents (none: the databases are empty). */
async function existingData(client: MongoClient, databases: string[]): Promise<Held[]> {
  const held: Held[] = [];
  for (const database of databases) {
    const db = client.db(database);
    for (const { name: collection } of await dataCollections(db)) {
      const count = await db.collection(collection).estimatedDocumentCount();
      if (count > 0) held.push({ database, collection, count });
    }
  }
  return held;
}

/**
 * Brings an archive back into the store: into empty databases, or (with `force`) replacing the
 * portal's databases. The services should not be running meanwhile. Collections are created with
 * their options, filled in batches, then given their indexes; the counts are checked against the
 * archive's end line, so a cut-off archive is noticed.
 */
export async function restore({
  mongoUrl,
  dbPrefix,
  file,
  force = false,
  batchDocuments = 1000,
  batchBytes = 8 * 1024 * 1024,
}: RestoreOptions): Promise<RestoreSummary> {
  const lines = archiveLines(file);
  const first = await lines.next();
  let manifest: Line;
  try {
    manifest = BSON.EJSON.parse(first.value ?? '', { relaxed: false }) as Line;
  } catch {
    throw notAnArchive(file, 'первая строка не JSON');
  }
  if (manifest.kind !== 'manifest' || manifest.format !== BACKUP_FORMAT)
    throw notAnArchive(file, `нет заголовка формата ${BACKUP_FORMAT}`);
  const unknown = manifest.services.filter((s) => !SERVICE_NAMES.includes(s));
  if (unknown.length) throw notAnArchive(file, `неизвестные сервисы: ${unknown.join(', ')}`);

  const client = await MongoClient.connect(mongoUrl, { serverSelectionTimeoutMS: 5000 });
  try {
    const databases = manifest.services.map((service) => databaseOf(dbPrefix, service));
    const existing = await existingData(client, databases);
    if (existing.length && !force) {
      const named = existing.slice(0, 5).map((h) => `${h.database}.${h.collection}: ${h.count}`);
      throw new BackupError(
        [
          `В хранилище уже есть данные портала (документов в коллекциях — ${named.join('; ')}${existing.length > 5 ? '; …' : ''}).`,
          'Восстановление заменяет их целиком: остановите портал и повторите с ключом --force:',
          `npm run restore -- ${file} --force`,
        ].join('\n'),
      );
    }
    // Empty collections (a service started once and made its indexes) go too: they are recreated as archived.
    for (const name of databases) await client.db(name).dropDatabase();

    const counts: Record<string, number> = {};
    let current: { header: CollectionHeader; db: Db } | null = null;
    let batch: Document[] = [];
    let batchSize = 0;
    const flush = async () => {
      if (!current || !batch.length) return;
      await current.db.collection(current.header.name).insertMany(batch, { ordered: true });
      batch = [];
      batchSize = 0;
    };
    const finishCollection = async () => {
      if (!current) return;
      await flush();
      const { header, db } = current;
      if (header.indexes.length) await db.collection(header.name).createIndexes(header.indexes as never);
    };

    let end: End | null = null;
    for await (const text of lines) {
      const line = BSON.EJSON.parse(text, { relaxed: false }) as Line;
      if (end) throw notAnArchive(file, 'строки после завершающей');
      if (line.kind === 'collection') {
        await finishCollection();
        const db = client.db(databaseOf(dbPrefix, line.service));
        await db.createCollection(line.name, line.options);
        current = { header: line, db };
        counts[countKey(line.service, line.name)] = 0;
      } else if (line.kind === 'document') {
        if (!current) throw notAnArchive(file, 'документ до описания коллекции');
        batch.push(line.document);
        batchSize += text.length;
        counts[countKey(current.header.service, current.header.name)]++;
        if (batch.length >= batchDocuments || batchSize >= batchBytes) await flush();
      } else if (line.kind === 'end') {
        await finishCollection();
        end = line;
      } else {
        throw notAnArchive(file, `неизвестная строка ${JSON.stringify(line.kind)}`);
      }
    }
    if (!end) throw new BackupError(`Архив ${file} обрезан: нет завершающей строки. Восстановлено не всё.`);
    // Numbers come back from canonical Extended JSON as BSON values: compare them as numbers.
    const archived = end.counts;
    const differing = Object.keys({ ...archived, ...counts }).filter((key) => Number(archived[key]) !== counts[key]);
    if (differing.length)
      throw new BackupError(`Архив ${file} повреждён: число документов не сходится (${differing.join(', ')}).`);
    return { counts, replaced: [...new Set(existing.map((h) => h.database))] };
  } finally {
    await client.close();
  }
}
