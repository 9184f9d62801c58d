import { randomUUID } from 'node:crypto';
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { Schema, type Connection, type Model } from 'mongoose';
import { AUDIT_EVENTS, AUDIT_QUEUE, describeAuditEvent, type AuditEvent, type TypedAuditEvent } from '@portal/contracts';
import type { Logger } from './logger';
import { watchOutbox } from './metrics';
import { op } from './mongo';
import { currentRequestId } from './scope';
import { withTimeout } from './timeout';

interface Filed {
  entityId?: string | null;
  actor: { id: string; fullName: string; email: string } | null;
}

/** An event as a command names it: a code of the contracts' table with its data, and the record it is about. */
export type AuditEventInput = TypedAuditEvent & { entityId?: string | null };

/** An event as a service publishes it: a code with its data, about a record, by a person (or the portal itself). */
export type AuditInput = AuditEventInput & Filed;

export const AUDIT_JOB_OPTIONS: JobsOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: false, // failed jobs stay for inspection
};

/** The collection, in each service's own database, that holds audit events while Redis is away. */
export const AUDIT_OUTBOX = 'audit_outbox';

interface OutboxDoc {
  _id: string;
  event: AuditEvent;
  createdAt: Date;
}

const outboxSchema = new Schema<OutboxDoc>(
  {
    _id: { type: String, required: true },
    event: { type: Schema.Types.Mixed, required: true },
    createdAt: { type: Date, default: Date.now },
  },
  { versionKey: false },
);

export interface AuditPublisherOptions {
  service: string;
  connection: Redis;
  prefix?: string;
  store: Connection;
  logger: Logger;
  maxBuffer?: number;
  retryMs?: number;
}

/**
 * Publishes audit events without making a request wait: `publish` only appends to a buffer.
 * A flusher moves the buffer to the BullMQ queue (job id = event id, so a retry never duplicates);
 * when Redis is away the events go to an outbox collection in the service's own database and are
 * delivered when Redis answers again. Delivery is at least once; the audit worker stores idempotently.
 */
export class AuditPublisher {
  readonly queue: Queue;
  private readonly outbox: Model<OutboxDoc>;
  private buffer: AuditEvent[] = [];
  private flushing: Promise<void> | null = null;
  /** The last flush could reach neither Redis nor the store: the timer tries again, not every flush call. */
  private stalled = false;
  private readonly timer: NodeJS.Timeout;
  private readonly maxBuffer: number;
  private readonly service: string;
  private readonly logger: Logger;
  private readonly unwatch: () => void;

  constructor({ service, connection, prefix, store, logger, maxBuffer = 50_000, retryMs = 2000 }: AuditPublisherOptions) {
    this.service = service;
    this.logger = logger;
    this.maxBuffer = maxBuffer;
    this.queue = new Queue(AUDIT_QUEUE, { connection, prefix, defaultJobOptions: AUDIT_JOB_OPTIONS });
    this.queue.on('error', () => undefined); // connection errors are logged once by the connection itself
    this.outbox = store.models.AuditOutbox ?? store.model<OutboxDoc>('AuditOutbox', outboxSchema, AUDIT_OUTBOX);
    // The outbox is looked at on this timer only (any replica's events left there are delivered by
    // whichever replica's timer comes first): a flush on a request's way costs no store command.
    this.timer = setInterval(() => void this.flush({ drainOutbox: true }), retryMs);
    this.timer.unref();
    this.unwatch = watchOutbox(service, () => this.outbox.estimatedDocumentCount());
  }

  publish(input: AuditInput): AuditEvent {
    // The table files the event (action, entity) and writes its details; the record keeps the code and data.
    const { action, entity, details, data } = this.describe(input);
    const event: AuditEvent = {
      id: randomUUID(),
      service: this.service,
      action,
      entity,
      entityId: input.entityId ?? null,
      details: details.slice(0, 2000),
      code: input.code,
      data,
      actor: input.actor ? { id: input.actor.id, fullName: input.actor.fullName, email: input.actor.email } : null,
      timestamp: new Date().toISOString(),
    };
    // The request that made the change, to find its log lines and its trace.
    const requestId = currentRequestId();
    if (requestId) event.requestId = requestId;
    if (this.buffer.length >= this.maxBuffer) {
      this.logger.error({ dropped: this.buffer[0].id }, 'audit buffer full: oldest event dropped');
      this.buffer.shift();
    }
    this.buffer.push(event);
    if (!this.flushing) setImmediate(() => void this.flush());
    return event;
  }

  /**
   * The event as its code files it. Data its code's schema refuses (a value the types call a string
   * that the store gave back as null) never fails the request whose change is already made: the
   * event is kept as given, without details, and reads as what was done to what.
   */
  private describe(input: AuditInput): ReturnType<typeof describeAuditEvent> {
    try {
      return describeAuditEvent(input);
    } catch (err) {
      this.logger.error(
        { code: input.code, err: (err as Error).message },
        'audit event data does not fit its code: kept as given',
      );
      const { action, entity } = AUDIT_EVENTS[input.code];
      return { action, entity, details: '', data: { ...(input.data as Record<string, unknown>) } };
    }
  }

  /** Pending events held by this process (memory only; the outbox is durable). */
  get pending(): number {
    return this.buffer.length;
  }

  /**
   * Resolves once every event published before it was called has left this process (or neither
   * Redis nor the store answers): a flush already under way may end just before a late event.
   */
  async flush({ drainOutbox = false }: { drainOutbox?: boolean } = {}): Promise<void> {
    do {
      this.flushing ??= this.doFlush(drainOutbox).finally(() => {
        this.flushing = null;
      });
      await this.flushing;
    } while (this.buffer.length && !this.stalled);
  }

  private async enqueue(events: AuditEvent[]): Promise<void> {
    await withTimeout(
      this.queue.addBulk(
        events.map((event) => ({ name: event.action, data: event, opts: { ...AUDIT_JOB_OPTIONS, jobId: event.id } })),
      ),
      3000,
    );
  }

  /**
   * Moves the buffer out, then (on the timer) delivers the outbox; events published meanwhile (their
   * publish saw this flush under way and asked for none) are moved by the same flush rather than
   * waiting for the timer.
   */
  private async doFlush(drainOutbox: boolean): Promise<void> {
    this.stalled = false;
    do {
      while (this.buffer.length) {
        const batch = this.buffer.slice(0, 500);
        try {
          await this.enqueue(batch);
        } catch {
          try {
            await withTimeout(
              this.outbox.insertMany(
                batch.map((event) => ({ _id: event.id, event })),
                { ordered: false },
              ),
              3000,
            );
          } catch (err) {
            if ((err as { code?: number }).code !== 11000) {
              this.logger.warn({ err: (err as Error).message, pending: this.buffer.length }, 'audit events kept in memory');
              this.stalled = true;
              return; // neither Redis nor the store: keep them and try again later
            }
          }
        }
        this.buffer.splice(0, batch.length);
      }
      if (drainOutbox) await this.drainOutbox();
    } while (this.buffer.length);
  }

  private async drainOutbox(): Promise<void> {
    for (;;) {
      let rows: OutboxDoc[];
      try {
        rows = await this.outbox.find({}).sort({ createdAt: 1 }).limit(500).lean<OutboxDoc[]>();
      } catch {
        return;
      }
      if (!rows.length) return;
      try {
        await this.enqueue(rows.map((r) => r.event));
        await this.outbox.deleteMany({ _id: op({ $in: rows.map((r) => r._id) }) });
        this.logger.info({ delivered: rows.length }, 'audit outbox delivered');
      } catch {
        return;
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.unwatch();
    await this.flush({ drainOutbox: true }).catch(() => undefined);
    await this.queue.close().catch(() => undefined);
  }
}
