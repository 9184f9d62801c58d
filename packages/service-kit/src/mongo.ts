import mongoose, {
  type Connection,
  type Model,
  type ProjectionType,
  type QueryFilter,
  type Schema,
  type SortOrder,
} from 'mongoose';
import { pageOffset } from '@portal/contracts';
import type { Logger } from './logger';
import { cappedTotal } from './totals';

// Operator objects in filters ($ne, $gt, $where...) from request input are neutralised everywhere.
mongoose.set('sanitizeFilter', true);
mongoose.set('strictQuery', true);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Connects to the service's own database, retrying while the store starts. Commands are not
 * buffered: while the store is away a request fails within a second (503) instead of hanging.
 */
export async function connectStore(
  url: string,
  dbName: string,
  logger: Logger,
  { attempts = 30, delayMs = 1000 }: { attempts?: number; delayMs?: number } = {},
): Promise<Connection> {
  for (let attempt = 1; ; attempt++) {
    const conn = mongoose.createConnection(url, {
      dbName,
      bufferCommands: false,
      // A request on a dead store gets its 503 within a second (the architecture's promise), and
      // /readyz answers before the gateway's one-second health probe gives up on it. A read the driver
      // retries after its connection dropped (the store killed under it) waits for two selections:
      // 2 × 300 ms leaves the second room for a busy machine (500 ms each once gave a 503 after
      // 1,048 ms, 400 ms each one after 1,002 ms while the other tests ran beside it).
      serverSelectionTimeoutMS: 300,
      connectTimeoutMS: 2000,
      maxPoolSize: 20,
      // Every wait on the store has a deadline. A request that waits longer than this for a free
      // connection gets its 503 instead of queueing behind a burst for ever, and /readyz answers.
      waitQueueTimeoutMS: 2000,
      // A reply that has not come in this long will not be used: the gateway gave up at 15 s. The
      // socket is closed and the connection replaced, so a stuck query cannot hold it for ever.
      socketTimeoutMS: 20_000,
      // Each command's duration for the metrics (portal_store_command_duration_seconds).
      monitorCommands: true,
    });
    try {
      await conn.asPromise();
      logger.info({ dbName }, 'store connected');
      return conn;
    } catch (err) {
      await conn.close().catch(() => undefined);
      if (attempt >= attempts) {
        throw new Error(`Cannot reach the store at ${url.replace(/\/\/[^@]*@/, '//***@')}: ${(err as Error).message}`);
      }
      logger.warn({ attempt, err: (err as Error).message }, 'store not reachable yet, retrying');
      await sleep(delayMs);
    }
  }
}

/** Single updates in flight at once when many are sent (updateEach). */
const UPDATES_IN_FLIGHT = 8;

type UpdateModel = {
  updateOne: { filter: Record<string, unknown>; update: Record<string, unknown>; upsert?: boolean; timestamps?: boolean };
};

/**
 * Sends many updates as one command each, UPDATES_IN_FLIGHT at a time, never as one bulk write.
 *
 * FerretDB v1.24 on PostgreSQL keeps a PostgreSQL connection for every statement of an `update`
 * command until the whole command ends (its handler defers each statement's close). Its pool has 50,
 * so bulks of updates whose statements add up to 50 at once (one bulk of 50, or three of 20 sent
 * together by a sync, a backfill and a migration) wait for each other for ever, and every other
 * command of every service waits behind them: the whole store stops. Measured here: a bulk of 49
 * answers in 0.1 s, one of 50 never; 200 single updates at once answer in 0.2 s. On MongoDB this
 * costs a round trip per update instead of one per thousand: background work, not a page.
 *
 * Every update is tried; the first failure is thrown after the others ended. Answers how many
 * documents matched, changed and were inserted.
 */
export async function updateEach<T>(
  model: Model<T>,
  updates: readonly UpdateModel[],
): Promise<{ matched: number; modified: number; upserted: number }> {
  const total = { matched: 0, modified: 0, upserted: 0 };
  let failure: unknown;
  for (let i = 0; i < updates.length; i += UPDATES_IN_FLIGHT) {
    const outcomes = await Promise.allSettled(
      // A bulk write of one: cast by the model's schema, and no middleware, as the bulk was.
      updates.slice(i, i + UPDATES_IN_FLIGHT).map((u) => model.bulkWrite([u] as never, { ordered: true })),
    );
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') failure ??= writeErrorOf(outcome.reason);
      else {
        total.matched += outcome.value.matchedCount;
        total.modified += outcome.value.modifiedCount;
        total.upserted += outcome.value.upsertedCount;
      }
    }
  }
  if (failure) throw failure;
  return total;
}

/** A bulk write of one fails with its statement's error inside: that error, with its code (11000…). */
function writeErrorOf(err: unknown): unknown {
  const [first] = (err as { writeErrors?: Array<{ code?: number; errmsg?: string }> }).writeErrors ?? [];
  return first ? Object.assign(new Error(first.errmsg ?? 'update failed'), { code: first.code, cause: err }) : err;
}

/** Whether the store answers a ping within `deadlineMs` (a saturated pool counts as not ready). */
export const storeIsUp = async (conn: Connection, deadlineMs = 800): Promise<boolean> => {
  if (!conn.db) return false;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), deadlineMs);
  });
  const ping = conn.db
    .admin()
    .command({ ping: 1 })
    .then(() => true);
  try {
    return await Promise.race([ping, deadline]);
  } finally {
    clearTimeout(timer);
    ping.catch(() => undefined); // a ping that loses the race must not become an unhandled rejection
  }
};

/**
 * A model's factory for a service's connection: registered on the connection the first time it is
 * asked for (in `collection`), the same model after that (a connection holds one model per name).
 */
export const storeModel =
  <T>(name: string, schema: Schema<T>, collection: string) =>
  (store: Connection): Model<T> =>
    (store.models[name] as Model<T> | undefined) ?? store.model<T>(name, schema, collection);

/**
 * Marks an operator object written by our own code (not taken from a request) as safe, since
 * sanitizeFilter would otherwise neutralise it.
 */
export const op = <T extends object>(operators: T): T => mongoose.trusted(operators) as T;

/** Escapes user text for use inside a RegExp (case-insensitive search without $regex operators). */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether an error says the store could not be reached or could not answer in time (down, out of
 * connections, a timed-out socket), rather than that it refused the command: such a command may go
 * through when asked again, and a request that meets one gets a 503.
 */
export const isStoreDown = (err: unknown): boolean => {
  const name = (err as { name?: string })?.name ?? '';
  return (
    /MongoServerSelectionError|MongoNetworkError|MongoNetworkTimeoutError|MongoNotConnectedError|MongoTopologyClosedError|MongoWaitQueueTimeoutError|MongoPoolClearedError|MongoPoolClosedError|MongoOperationTimeoutError/.test(
      name,
    ) ||
    (err instanceof mongoose.Error && /buffering timed out|before initial connection/.test(err.message))
  );
};

/** Models whose indexes are made at once: the driver opens two connections at a time (maxConnecting). */
const INDEX_CONCURRENCY = 2;

/**
 * Creates the indexes the models' schemas declare and drops none. `syncIndexes()` would also drop
 * every index its schema does not name, so during a rolling deploy the old and the new version of
 * a service would drop each other's indexes. An index no version needs any more is dropped by a
 * migration, never at start. (An existing index of the same name with other options is an error
 * here, as it should be: that is a migration too.)
 *
 * Two models at a time, and a model whose indexes failed because the store did not answer in time
 * is asked again until `deadlineMs` has passed. All at once, a service starting on a busy store
 * (another starting beside it, a test run's other processes) waited in the pool's queue for
 * connections still being opened, past `waitQueueTimeoutMS`, and stopped with that error.
 */
export async function ensureIndexes(
  models: IndexedModel[] | Record<string, IndexedModel>,
  { deadlineMs = 30_000, retryDelayMs = 250 }: { deadlineMs?: number; retryDelayMs?: number } = {},
): Promise<void> {
  const waiting = [...(Array.isArray(models) ? models : Object.values(models))];
  const giveUpAt = Date.now() + deadlineMs;
  const createOne = async (model: IndexedModel): Promise<void> => {
    // Mongoose makes a model's indexes by itself as it is compiled (autoIndex): wait for that first,
    // whatever its outcome. Asked beside it, FerretDB made the same index twice (listed twice).
    await model.init?.().catch(() => undefined);
    for (;;) {
      try {
        await model.createIndexes();
        return;
      } catch (err) {
        if (!isStoreDown(err) || Date.now() + retryDelayMs >= giveUpAt) throw err;
        await sleep(retryDelayMs);
      }
    }
  };
  const worker = async () => {
    for (let model = waiting.shift(); model; model = waiting.shift()) await createOne(model);
  };
  await Promise.all(Array.from({ length: Math.min(INDEX_CONCURRENCY, waiting.length) }, worker));
}

/** What ensureIndexes needs of a mongoose model. */
export interface IndexedModel {
  createIndexes(): Promise<unknown>;
  /** Mongoose's own making of the collection and its indexes, started as the model was compiled. */
  init?(): Promise<unknown>;
}

/** Which page of a list, as every list query carries it. */
export interface Paging {
  page: number;
  limit: number;
}

/**
 * One page of the records `filter` selects, in `sort` order (end it with `_id` so pages never
 * overlap), and how many it selects in all, to LIST_TOTAL_CAP (see cappedTotal): the two reads
 * behind every paged list.
 */
export async function readPage<T>(
  model: Model<T>,
  filter: QueryFilter<T>,
  paging: Paging,
  sort: Record<string, SortOrder>,
  projection?: ProjectionType<T>,
): Promise<{ rows: T[]; total: number; totalExact?: false }> {
  const [rows, counted] = await Promise.all([
    model.find(filter, projection).sort(sort).skip(pageOffset(paging)).limit(paging.limit).lean<T[]>(),
    cappedTotal(model as unknown as Parameters<typeof cappedTotal>[0], filter as Record<string, unknown>),
  ]);
  return { rows, ...counted };
}
