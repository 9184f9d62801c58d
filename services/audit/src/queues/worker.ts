import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Model } from 'mongoose';
import { AUDIT_QUEUE, auditEventSchema, type AuditEvent } from '@portal/contracts';
import type { Logger } from '@portal/service-kit';
import type { AuditRecordDoc } from '../models/record';

/** Stores one event; an event seen before (same id) changes nothing. */
export async function storeEvent(records: Model<AuditRecordDoc>, data: unknown): Promise<void> {
  const parsed = auditEventSchema.safeParse(data);
  // A malformed event will never store: fail it at once (kept for inspection) instead of retrying.
  if (!parsed.success)
    throw new UnrecoverableError(
      `malformed audit event: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`,
    );
  const event: AuditEvent = parsed.data;
  await records.updateOne(
    { _id: event.id },
    {
      $setOnInsert: {
        eventId: event.id,
        service: event.service,
        action: event.action,
        entity: event.entity,
        entityId: event.entityId,
        details: event.details,
        actor: event.actor,
        timestamp: new Date(event.timestamp),
      },
    },
    { upsert: true },
  );
}

export function startAuditWorker(
  connection: Redis,
  records: Model<AuditRecordDoc>,
  logger: Logger,
  { concurrency, prefix }: { concurrency: number; prefix: string },
): Worker {
  const worker = new Worker(AUDIT_QUEUE, (job: Job) => storeEvent(records, job.data), {
    connection,
    concurrency,
    prefix,
    autorun: true,
  });
  worker.on('failed', (job, err) =>
    logger.warn({ jobId: job?.id, attempts: job?.attemptsMade, err: err.message }, 'audit job failed'),
  );
  worker.on('error', () => undefined);
  return worker;
}
