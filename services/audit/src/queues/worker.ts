import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Model } from 'mongoose';
import { AUDIT_QUEUE, auditEventSchema, type AuditEvent } from '@portal/contracts';
import { bumpVersion, watchWorker, type Logger } from '@portal/service-kit';
import { dayOf, filedAt, TRAIL_VERSION, type AuditRecordDoc } from '../models/record';
import { daySummaryModel, invalidateLateDays } from '../queries/daySummaries';
import { MicroBatcher, type BatchWrite } from './batcher';

const DUPLICATE_KEY = 11000;

/** Checks a job's data; a malformed event will never store, so it fails at once (kept for inspection) instead of retrying. */
export function parseEvent(data: unknown): AuditEvent {
  const parsed = auditEventSchema.safeParse(data);
  if (!parsed.success)
    throw new UnrecoverableError(
      `malformed audit event: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`,
    );
  return parsed.data;
}

const recordOf = (event: AuditEvent): AuditRecordDoc => ({
  _id: event.id,
  eventId: event.id,
  service: event.service,
  action: event.action,
  entity: event.entity,
  entityId: event.entityId,
  details: event.details,
  actor: event.actor,
  actorId: event.actor?.id ?? null,
  timestamp: new Date(event.timestamp),
  ...filedAt(new Date(event.timestamp)),
  ...(event.requestId ? { requestId: event.requestId } : {}),
  ...(event.code ? { code: event.code, data: event.data ?? {} } : {}),
});

interface BulkWriteFailure {
  writeErrors?: Array<{ index: number; code: number; errmsg?: string }> | { index: number; code: number; errmsg?: string };
}

/**
 * Stores events in one unordered insert and answers each event's outcome. The event id is the
 * record's `_id`, so an event stored before (a redelivery, or the same event twice in one batch)
 * is refused by the `_id` index with a duplicate-key error: that event is stored, exactly once.
 * An insert, not an upsert: FerretDB runs a batch of upserts one by one (0.5 s for 500) but a
 * batch of inserts in one commit (50 ms for 500).
 */
export async function storeEvents(records: Model<AuditRecordDoc>, events: AuditEvent[]): Promise<Array<Error | null>> {
  // An event of a day that is over makes that day's summary stale, before and after it is stored
  // (queries/daySummaries.ts); today's events, nearly all of them, cost nothing here.
  const days = events.map((event) => dayOf(new Date(event.timestamp)));
  const summaries = daySummaryModel(records.db);
  await invalidateLateDays(summaries, days);
  try {
    return await insertEvents(records, events);
  } finally {
    await invalidateLateDays(summaries, days);
    await bumpVersion(records.db, TRAIL_VERSION);
  }
}

async function insertEvents(records: Model<AuditRecordDoc>, events: AuditEvent[]): Promise<Array<Error | null>> {
  try {
    await records.bulkWrite(
      events.map((event) => ({ insertOne: { document: recordOf(event) } })),
      // A document mongoose refuses must fail the write, never be skipped in silence.
      { ordered: false, throwOnValidationError: true },
    );
    return events.map(() => null);
  } catch (err) {
    const raw = (err as BulkWriteFailure).writeErrors;
    // Without per-item errors the whole write failed (store unreachable): every event is retried.
    if (!raw) throw err;
    const outcomes: Array<Error | null> = events.map(() => null);
    for (const w of Array.isArray(raw) ? raw : [raw])
      if (w.code !== DUPLICATE_KEY) outcomes[w.index] = new Error(`audit record not stored: ${w.errmsg ?? w.code}`);
    return outcomes;
  }
}

/** Stores one event; an event seen before (same id) changes nothing. */
export async function storeEvent(records: Model<AuditRecordDoc>, data: unknown): Promise<void> {
  const [outcome] = await storeEvents(records, [parseEvent(data)]);
  if (outcome) throw outcome;
}

/** Events per store write; 50 × 4 writes in flight keeps 200 jobs active, far below BullMQ's lock time. */
export const AUDIT_BATCH_SIZE = 50;

/**
 * The audit queue's worker. `concurrency` is the number of store writes in flight; each write
 * carries up to `batchSize` events, so BullMQ takes up to concurrency × batchSize jobs at once and
 * each job completes when the write holding its event is stored.
 */
export function startAuditWorker(
  connection: Redis,
  records: Model<AuditRecordDoc>,
  logger: Logger,
  {
    concurrency,
    prefix,
    batchSize = AUDIT_BATCH_SIZE,
    write = (events) => storeEvents(records, events),
  }: { concurrency: number; prefix: string; batchSize?: number; write?: BatchWrite<AuditEvent> },
): Worker {
  const batcher = new MicroBatcher<AuditEvent>(write, { maxBatch: batchSize, maxInFlight: concurrency });
  const worker = new Worker(AUDIT_QUEUE, (job: Job) => batcher.add(parseEvent(job.data)), {
    connection,
    concurrency: concurrency * batchSize,
    prefix,
    autorun: true,
    // A worker that dies holding jobs (a crash mid-batch) gives them back within seconds instead of
    // BullMQ's default minute, and a job that stalls again is redelivered rather than failed: storage
    // ignores an event it already has, so redelivery is always safe.
    lockDuration: 10_000,
    stalledInterval: 5_000,
    maxStalledCount: 100,
  });
  worker.on('failed', (job, err) =>
    logger.warn({ jobId: job?.id, attempts: job?.attemptsMade, err: err.message }, 'audit job failed'),
  );
  worker.on('error', () => undefined);
  watchWorker(worker);
  return worker;
}
