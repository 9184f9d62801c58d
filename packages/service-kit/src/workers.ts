import type { Worker } from 'bullmq';
import { withTimeout } from './timeout';

/** How long a closing worker waits for its blocking connection to be back before it stops at once. */
export const WORKER_RECONNECT_WAIT_MS = 5_000;

/** The ioredis client of BullMQ's blocking connection, as much of it as is read here. */
interface BlockingClient {
  status: string;
  once(event: 'ready', listener: () => void): unknown;
}

/**
 * Closes a BullMQ worker, letting the jobs it holds finish, and never hangs on a Redis that is away.
 *
 * BullMQ's graceful close first disconnects the worker's blocking connection and waits for its `end`
 * event. A client that lost Redis and waits to retry (ioredis's `reconnecting`, no socket) never
 * emits it, so the close waited forever (taskforcesh/bullmq#4656): a stop just after Redis came back
 * hung. So the close waits, up to `reconnectWaitMs`, for that connection to be back, and closes
 * gracefully then; if Redis is still away it closes at once, and the jobs the worker held come back
 * through BullMQ's stalled check, as after a crash.
 */
export async function closeWorker(worker: Worker, reconnectWaitMs = WORKER_RECONNECT_WAIT_MS): Promise<void> {
  // BullMQ keeps the blocking connection private; only its client's status is read. A listener left
  // behind by a close that did not wait goes with the client, which the close ends.
  const connection = (worker as unknown as { blockingConnection: { client: Promise<BlockingClient> } }).blockingConnection;
  const back = async () => {
    const client = await connection.client;
    if (client.status !== 'ready') await new Promise<void>((resolve) => client.once('ready', resolve));
    return true;
  };
  const ready = await withTimeout(back(), reconnectWaitMs).catch(() => false);
  await worker.close(!ready);
}
