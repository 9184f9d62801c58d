import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { Types, type Connection, type Model } from 'mongoose';
import {
  GENERATION_MSG,
  isValidId,
  invalidIdMessage,
  type GenerateCourseRequest,
  type GenerationProposal,
  type GenerationSource,
  type GenerationStage,
} from '@portal/contracts';
import {
  badRequest,
  courseBuilderJobs,
  type Logger,
  op,
  type Principal,
  unavailable,
  unwatchQueue,
  watchQueue,
  watchWorker,
} from '@portal/service-kit';
import type { ContentModels } from '../models';
import { generationJobModel, runningJobDoc, type JobDoc } from '../models/generationJob';
import { GenerationCancelled, GenerationFailure } from './failure';
import type { RegenerationTarget } from './pipeline';
import { removeDraft } from './save';

/** The BullMQ queue every content process adds course-builder jobs to and works. */
export const GENERATION_QUEUE = 'content-generation';
/** Finished jobs stay readable this long (the author may come back to a proposal), then go. */
export const FINISHED_JOB_TTL_MS = 30 * 60 * 1000;
/** DELETE waits this long for a cancelled job to take back what it wrote before answering. */
const CANCEL_WAIT_MS = 5000;
/** How often a running job looks for a cancel that reached another replica. */
const CANCEL_POLL_MS = 200;

/** What a job's work may do to the job while it runs (each write lands in the store, seen by every replica). */
export interface JobHandle {
  readonly signal: AbortSignal;
  stage(stage: GenerationStage, progress: number): Promise<void>;
  /** Before a course job writes anything: the id it writes under, so a replica taking over can take it back. */
  drafting(courseId: string): Promise<void>;
  setCourseId(courseId: string): Promise<void>;
  /** A node job's result; `version` is the node's state it was made from (kept out of the answer). */
  propose(proposal: GenerationProposal, version: string): Promise<void>;
}

/** What the worker needs to do a job (in the queue, so any replica can pick it up). */
export type JobPayload =
  | { kind: 'course'; actor: Principal; request: GenerateCourseRequest }
  | { kind: 'node'; actor: Principal; target: RegenerationTarget; instructions: string };

export type JobWork = (payload: JobPayload, handle: JobHandle) => Promise<void>;

export interface JobStart {
  owner: Principal;
  source: GenerationSource;
  notice: string;
  courseId: string | null;
  targetId: string | null;
}

export interface WorkerSettings {
  /** Redis connection for the worker (BullMQ needs one that waits, not fails fast). */
  connection: Redis;
  concurrency: number;
  /** A replica that stops renewing its lock this long is taken for dead and its job handed on. */
  lockMs: number;
}

/**
 * BullMQ 5 race: a stalled check in flight when close() began arms its next wait (stalledInterval)
 * after close() stopped the previous one, keeping the process alive that long. Stop that wait too
 * (bounded: the check in flight is one Redis script).
 */
async function endStalledChecker(worker: Worker): Promise<void> {
  const deadline = Date.now() + 2000;
  while (Reflect.get(worker, 'stalledCheckerRunning') === true && Date.now() < deadline) {
    const stop: unknown = Reflect.get(worker, 'stalledCheckStopper');
    if (typeof stop === 'function') (stop as () => void).call(worker);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Why a running job was stopped in this process. */
type StopReason = 'cancelled' | 'shutdown';

/**
 * Course-builder jobs: state in the store, work in a BullMQ queue that every content process works.
 * A poll, cancel or accept may reach any replica. A replica that dies under a job stops renewing the
 * job's lock; another one takes the job over once (taking back any draft the first one began), and
 * a job stalled twice is failed with a clear message. A course is written document last under an id
 * the job records first, so neither path can leave a half-made course behind.
 *
 * One writer at a time: FerretDB runs a conditional update as a read and a whole-document write, so
 * two writers of one job could undo each other. While a job runs only its worker writes it; a cancel
 * is a flag in Redis that the worker reads and writes down. Of two accepts (or rejects), the one that
 * takes the proposal's Redis claim applies it.
 */
export class GenerationJobs {
  readonly model: Model<JobDoc>;
  readonly queue: Queue;
  private worker: Worker | null = null;
  private readonly running = new Map<string, AbortController>();

  constructor(
    store: Connection,
    private readonly content: ContentModels,
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    this.model = generationJobModel(store);
    this.queue = new Queue(GENERATION_QUEUE, {
      connection: redis,
      prefix,
      // The state lives in the store; the queue only hands the work out.
      defaultJobOptions: { attempts: 1, removeOnComplete: true, removeOnFail: true },
    });
    this.queue.on('error', () => undefined); // the connection logs Redis trouble once
    watchQueue(this.queue);
  }

  private changes = (changes: Partial<JobDoc>): Partial<JobDoc> => ({ ...changes, updatedAt: new Date() });
  private finished = (changes: Partial<JobDoc>): Partial<JobDoc> =>
    this.changes({ ...changes, expiresAt: new Date(Date.now() + FINISHED_JOB_TTL_MS) });

  private write = (id: string, changes: Partial<JobDoc>) => this.model.updateOne({ _id: id }, { $set: changes });

  private cancelKey = (id: string) => `${this.prefix}:content:generation:cancel:${id}`;
  private claimKey = (id: string, round: number) => `${this.prefix}:content:generation:claim:${id}:${round}`;
  private async cancelAsked(id: string): Promise<boolean> {
    return (await this.redis.exists(this.cancelKey(id)).catch(() => 0)) === 1;
  }

  private cancelledState = (doc: Pick<JobDoc, 'kind' | 'courseId'>): Partial<JobDoc> =>
    this.finished({ status: 'cancelled', error: GENERATION_MSG.cancelled, ...this.nothingKept(doc), draftCourseId: null });

  async start(input: JobStart, payload: JobPayload): Promise<JobDoc> {
    await this.model.deleteMany({ expiresAt: op({ $lt: new Date() }) });
    const { owner, ...fields } = input;
    const doc = runningJobDoc({
      ...fields,
      ownerId: owner.id,
      kind: payload.kind === 'course' ? 'course' : payload.target.node.kind,
    });
    await this.model.create(doc);
    courseBuilderJobs.inc({ kind: doc.kind, outcome: 'started' });
    try {
      await this.queue.add(doc.kind, payload, { jobId: doc._id });
    } catch {
      // Redis away: the job never ran, so it is not left "running" for ever.
      await this.write(doc._id, this.finished({ status: 'failed', error: GENERATION_MSG.providerFailed, settled: true }));
      throw unavailable();
    }
    return doc;
  }

  /** A job by id (400 for an id that breaks the id rule); whether the caller may use it is the policy's call. */
  async find(rawId: unknown): Promise<JobDoc | null> {
    if (!isValidId(rawId)) throw badRequest(invalidIdMessage('id'), 'id');
    const doc = await this.model.findById(rawId).lean<JobDoc>();
    if (!doc || (doc.expiresAt && doc.expiresAt.getTime() < Date.now())) return null;
    return doc;
  }

  /** What a job that did not succeed keeps: no proposal, and a course job no course. */
  private nothingKept = (doc: Pick<JobDoc, 'kind' | 'courseId'>): Partial<JobDoc> => ({
    proposal: null,
    hasProposal: false,
    courseId: doc.kind === 'course' ? null : doc.courseId,
  });

  /**
   * Cancels a running job wherever it runs and waits (bounded) until its worker has taken back what
   * it wrote. A job still running after the wait (its replica died) ends cancelled when taken over.
   */
  async cancel(doc: JobDoc): Promise<JobDoc> {
    await this.redis.set(this.cancelKey(doc._id), '1', 'PX', FINISHED_JOB_TTL_MS).catch(() => {
      throw unavailable();
    });
    this.running.get(doc._id)?.abort('cancelled');
    // Not taken by any worker yet: it leaves the queue and never runs, and nobody else writes it.
    // (A job being worked is locked: 0.)
    const removed = await this.queue.remove(doc._id).catch(() => 0);
    if (removed) await this.write(doc._id, { ...this.cancelledState(doc), settled: true });
    const deadline = Date.now() + CANCEL_WAIT_MS;
    for (;;) {
      const now = (await this.reload(doc._id)) ?? doc;
      if (now.status !== 'running' && now.settled) return now;
      if (Date.now() > deadline) return now.status === 'running' ? ({ ...now, ...this.cancelledState(now) } as JobDoc) : now;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Takes a job's proposal out, once: of two accepts (or rejects) on any replicas only one gets it. */
  async takeProposal(doc: JobDoc): Promise<boolean> {
    if (!doc.hasProposal) return false;
    const claimed = await this.redis
      .set(this.claimKey(doc._id, doc.proposalRound), '1', 'PX', FINISHED_JOB_TTL_MS, 'NX')
      .catch(() => {
        throw unavailable();
      });
    if (claimed !== 'OK') return false;
    await this.write(doc._id, this.changes({ proposal: null, hasProposal: false, nodeVersion: null }));
    return true;
  }

  /** An accept that failed for a passing reason (the store was away) leaves the proposal to try again (a new claim). */
  async restoreProposal(doc: JobDoc): Promise<void> {
    await this.write(
      doc._id,
      this.changes({
        proposal: doc.proposal,
        hasProposal: true,
        nodeVersion: doc.nodeVersion,
        proposalRound: doc.proposalRound + 1,
      }),
    );
  }

  async reload(id: string): Promise<JobDoc | null> {
    return this.model.findById(id).lean<JobDoc>();
  }

  /**
   * A course job found with a draft begun by an earlier attempt: a draft whose course document
   * exists was saved whole (the course is written last) and is kept; any other is taken back.
   */
  private async settleDraft(doc: JobDoc): Promise<'kept' | 'removed' | 'none'> {
    if (!doc.draftCourseId) return 'none';
    const courseId = new Types.ObjectId(doc.draftCourseId);
    if ((await this.content.courses.exists({ _id: courseId })) && !(await this.cancelAsked(doc._id))) {
      await this.write(
        doc._id,
        this.finished({
          status: 'succeeded',
          stage: 'done',
          progress: 100,
          courseId: doc.draftCourseId,
          draftCourseId: null,
          settled: true,
        }),
      );
      return 'kept';
    }
    await removeDraft(this.content, courseId);
    await this.write(doc._id, { draftCourseId: null });
    return 'removed';
  }

  /** This process's worker once started. */
  get localWorker(): Worker | null {
    return this.worker;
  }

  /** Starts working the queue in this process (every replica does). */
  startWorker(work: JobWork, settings: WorkerSettings): Worker {
    this.worker = new Worker<JobPayload>(GENERATION_QUEUE, (job, token) => this.process(job, token, work), {
      connection: settings.connection,
      prefix: this.queue.opts.prefix,
      concurrency: settings.concurrency,
      lockDuration: settings.lockMs,
      stalledInterval: settings.lockMs,
      // One takeover after a replica dies; a job that outlives two replicas is failed (it may be what kills them).
      maxStalledCount: 1,
    });
    this.worker.on('error', (err) => this.logger.warn({ err: err.message }, 'generation worker error'));
    watchWorker(this.worker);
    // A job failed by BullMQ itself (stalled twice) never reaches the work: fail it in the store.
    this.worker.on('failed', (job) => {
      if (job?.id)
        void this.interrupted(job.id).catch((err) => this.logger.error({ err, jobId: job.id }, 'interrupted job not recorded'));
    });
    return this.worker;
  }

  private async interrupted(id: string): Promise<void> {
    const doc = await this.reload(id);
    if (!doc || doc.status !== 'running') return;
    if ((await this.settleDraft(doc)) === 'kept') return;
    const cancelled = await this.cancelAsked(id);
    await this.write(
      id,
      cancelled
        ? { ...this.cancelledState(doc), settled: true }
        : this.finished({
            status: 'failed',
            error: GENERATION_MSG.interrupted,
            ...this.nothingKept(doc),
            draftCourseId: null,
            settled: true,
          }),
    );
    courseBuilderJobs.inc({ kind: doc.kind, outcome: cancelled ? 'cancelled' : 'failed' });
  }

  private async process(job: Job<JobPayload>, token: string | undefined, work: JobWork): Promise<void> {
    const id = String(job.id);
    const doc = await this.reload(id);
    if (!doc || doc.status !== 'running') return;
    // Taken over from a replica that died: what it saved whole is kept, anything half-made goes.
    if ((await this.settleDraft(doc)) === 'kept') return;
    if (await this.cancelAsked(id)) {
      await this.write(id, { ...this.cancelledState(doc), settled: true });
      return;
    }

    const controller = new AbortController();
    this.running.set(id, controller);
    // A cancel that reached another replica: a flag in Redis, looked at a few times a second.
    const watch = setInterval(() => {
      void this.cancelAsked(id).then((asked) => {
        if (asked) controller.abort('cancelled' satisfies StopReason);
      });
    }, CANCEL_POLL_MS);
    let progress = doc.progress;
    const handle: JobHandle = {
      signal: controller.signal,
      stage: async (stage, value) => {
        progress = Math.max(progress, Math.min(100, Math.round(value)));
        await this.write(id, this.changes({ stage, progress }));
      },
      drafting: async (courseId) => {
        await this.write(id, this.changes({ draftCourseId: courseId }));
      },
      setCourseId: async (courseId) => {
        await this.write(id, this.changes({ courseId }));
      },
      propose: async (proposal, version) => {
        await this.write(id, this.changes({ proposal, hasProposal: true, nodeVersion: version }));
      },
    };
    try {
      await work(job.data, handle);
      if (controller.signal.aborted || (await this.cancelAsked(id))) throw new GenerationCancelled();
      await this.write(
        id,
        this.finished({ status: 'succeeded', stage: 'done', progress: 100, draftCourseId: null, settled: true }),
      );
      courseBuilderJobs.inc({ kind: doc.kind, outcome: 'succeeded' });
    } catch (err) {
      if (controller.signal.reason === 'shutdown') {
        // This replica is stopping (a rolling deploy): the work took back its draft; another replica starts it afresh.
        await this.write(id, this.changes({ stage: 'structure', progress: 0, draftCourseId: null }));
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      await this.fail(id, doc, err, controller.signal.aborted);
    } finally {
      clearInterval(watch);
      this.running.delete(id);
    }
  }

  private async fail(id: string, doc: JobDoc, err: unknown, aborted: boolean): Promise<void> {
    if (aborted || err instanceof GenerationCancelled) {
      // The work takes back its draft when a write is cut off; a cancel after the last write lands here.
      const now = await this.reload(id);
      for (const courseId of [now?.draftCourseId, doc.kind === 'course' ? now?.courseId : null])
        if (courseId) await removeDraft(this.content, new Types.ObjectId(courseId));
      await this.write(id, { ...this.cancelledState(doc), settled: true });
      courseBuilderJobs.inc({ kind: doc.kind, outcome: 'cancelled' });
      return;
    }
    courseBuilderJobs.inc({ kind: doc.kind, outcome: 'failed' });
    if (!(err instanceof GenerationFailure)) this.logger.error({ err, jobId: id }, 'generation failed');
    const message = err instanceof GenerationFailure ? err.message : GENERATION_MSG.providerFailed;
    await this.write(
      id,
      this.finished({ status: 'failed', error: message, ...this.nothingKept(doc), draftCourseId: null, settled: true }),
    );
  }

  /**
   * Stops working the queue here. Running jobs go back to the queue (each takes back what it wrote
   * first), so a rolling deploy moves them to another replica instead of cancelling them.
   */
  async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    for (const controller of this.running.values()) controller.abort('shutdown' satisfies StopReason);
    await worker?.close();
    if (worker) await endStalledChecker(worker);
  }

  async close(): Promise<void> {
    unwatchQueue(this.queue);
    await this.stopWorker();
    await this.queue.close();
  }
}
