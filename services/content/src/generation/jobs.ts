import { randomUUID } from 'node:crypto';
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { Schema, Types, type Connection, type Model } from 'mongoose';
import {
  GENERATION_MSG,
  isValidId,
  invalidIdMessage,
  type GenerateCourseRequest,
  type GenerationJob,
  type GenerationKind,
  type GenerationProposal,
  type GenerationSource,
  type GenerationStage,
  type GenerationStatus,
} from '@portal/contracts';
import { badRequest, op, unavailable, type Logger, type Principal } from '@portal/service-kit';
import type { ContentModels } from '../models';
import { GenerationCancelled, GenerationFailure } from './failure';
import type { RegenerationTarget } from './pipeline';
import { removeDraft } from './save';

/** The BullMQ queue every content process adds course-builder jobs to and works. */
export const GENERATION_QUEUE = 'content-generation';
/** Finished jobs stay readable this long (the author may come back to a proposal), then go. */
export const FINISHED_JOB_TTL_MS = 30 * 60 * 1000;
/** DELETE waits this long for a cancelled job to take back what it wrote before answering. */
const CANCEL_WAIT_MS = 5000;
/** How often a running job looks in the store for a cancel that reached another replica. */
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

/** A job's state, in the content database: every replica reads, cancels and accepts the same one. */
export interface JobDoc {
  _id: string;
  ownerId: string;
  kind: GenerationKind;
  status: GenerationStatus;
  stage: GenerationStage;
  progress: number;
  source: GenerationSource;
  notice: string;
  error: string | null;
  courseId: string | null;
  targetId: string | null;
  proposal: GenerationProposal | null;
  /** Equality-only twin of `proposal`, so taking a proposal is one conditional update. */
  hasProposal: boolean;
  nodeVersion: string | null;
  /** The course a course job is writing (its document last); null once kept or taken back. */
  draftCourseId: string | null;
  /** The work has stopped and cleaned up after itself. */
  settled: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Set when the job finishes; the job is gone after it. */
  expiresAt: Date | null;
}

const jobSchema = new Schema<JobDoc>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    kind: { type: String, required: true },
    status: { type: String, required: true },
    stage: { type: String, required: true },
    progress: { type: Number, default: 0 },
    source: { type: String, required: true },
    notice: { type: String, default: '' },
    error: { type: String, default: null },
    courseId: { type: String, default: null },
    targetId: { type: String, default: null },
    proposal: { type: Schema.Types.Mixed, default: null },
    hasProposal: { type: Boolean, default: false },
    nodeVersion: { type: String, default: null },
    draftCourseId: { type: String, default: null },
    settled: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    expiresAt: { type: Date, default: null },
  },
  { versionKey: false, minimize: false },
);

export const generationJobModel = (store: Connection): Model<JobDoc> =>
  (store.models.GenerationJob as Model<JobDoc>) ?? store.model<JobDoc>('GenerationJob', jobSchema, 'generation_jobs');

export interface JobStart {
  owner: Principal;
  source: GenerationSource;
  notice: string;
  courseId: string | null;
  targetId: string | null;
}

/** A job's public face. */
export const presentJob = (doc: JobDoc): GenerationJob => ({
  id: doc._id,
  kind: doc.kind,
  status: doc.status,
  stage: doc.stage,
  progress: doc.progress,
  source: doc.source,
  notice: doc.notice,
  error: doc.error,
  courseId: doc.courseId,
  targetId: doc.targetId,
  proposal: doc.proposal ?? null,
  createdAt: new Date(doc.createdAt).toISOString(),
  updatedAt: new Date(doc.updatedAt).toISOString(),
});

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
 */
export class GenerationJobs {
  readonly model: Model<JobDoc>;
  readonly queue: Queue;
  private worker: Worker | null = null;
  private readonly running = new Map<string, AbortController>();

  constructor(
    store: Connection,
    private readonly content: ContentModels,
    redis: Redis,
    prefix: string,
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
  }

  private changes = (changes: Partial<JobDoc>): Partial<JobDoc> => ({ ...changes, updatedAt: new Date() });
  private finished = (changes: Partial<JobDoc>): Partial<JobDoc> =>
    this.changes({ ...changes, expiresAt: new Date(Date.now() + FINISHED_JOB_TTL_MS) });

  /** Writes to a job only while it runs: a cancel from any replica wins over a late write. */
  private async whileRunning(id: string, changes: Partial<JobDoc>): Promise<boolean> {
    const { modifiedCount } = await this.model.updateOne({ _id: id, status: 'running' }, { $set: changes });
    return modifiedCount === 1;
  }

  async start(input: JobStart, payload: JobPayload): Promise<GenerationJob> {
    await this.model.deleteMany({ expiresAt: op({ $lt: new Date() }) });
    const now = new Date();
    const doc: JobDoc = {
      _id: randomUUID(),
      ownerId: input.owner.id,
      kind: payload.kind === 'course' ? 'course' : payload.target.node.kind,
      status: 'running',
      stage: 'structure',
      progress: 0,
      source: input.source,
      notice: input.notice,
      error: null,
      courseId: input.courseId,
      targetId: input.targetId,
      proposal: null,
      hasProposal: false,
      nodeVersion: null,
      draftCourseId: null,
      settled: false,
      createdAt: now,
      updatedAt: now,
      expiresAt: null,
    };
    await this.model.create(doc);
    try {
      await this.queue.add(doc.kind, payload, { jobId: doc._id });
    } catch {
      // Redis away: the job never ran, so it is not left "running" for ever.
      await this.model.updateOne({ _id: doc._id }, { $set: this.finished({ status: 'failed', error: GENERATION_MSG.providerFailed, settled: true }) });
      throw unavailable();
    }
    return presentJob(doc);
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

  /** Cancels a running job wherever it runs and waits (bounded) until it has taken back what it wrote. */
  async cancel(doc: JobDoc): Promise<JobDoc> {
    await this.whileRunning(doc._id, this.finished({ status: 'cancelled', error: GENERATION_MSG.cancelled, ...this.nothingKept(doc) }));
    this.running.get(doc._id)?.abort('cancelled');
    // Not taken by any worker yet: it leaves the queue and never runs. (A job being worked is locked: 0.)
    const removed = await this.queue.remove(doc._id).catch(() => 0);
    if (removed) await this.model.updateOne({ _id: doc._id }, { $set: { settled: true } });
    const deadline = Date.now() + CANCEL_WAIT_MS;
    for (;;) {
      const now = await this.model.findById(doc._id).lean<JobDoc>();
      if (!now || now.settled || Date.now() > deadline) return now ?? doc;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Takes a job's proposal out, once: of two accepts (on any replicas) only one gets it. */
  async takeProposal(doc: JobDoc): Promise<boolean> {
    const { modifiedCount } = await this.model.updateOne(
      { _id: doc._id, hasProposal: true },
      { $set: this.changes({ proposal: null, hasProposal: false, nodeVersion: null }) },
    );
    return modifiedCount === 1;
  }

  /** An accept that failed for a passing reason (the store was away) leaves the proposal to try again. */
  async restoreProposal(doc: JobDoc): Promise<void> {
    await this.model.updateOne(
      { _id: doc._id },
      { $set: this.changes({ proposal: doc.proposal, hasProposal: true, nodeVersion: doc.nodeVersion }) },
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
    if (await this.content.courses.exists({ _id: courseId })) {
      await this.whileRunning(
        doc._id,
        this.finished({ status: 'succeeded', stage: 'done', progress: 100, courseId: doc.draftCourseId, draftCourseId: null, settled: true }),
      );
      return 'kept';
    }
    await removeDraft(this.content, courseId);
    await this.model.updateOne({ _id: doc._id }, { $set: { draftCourseId: null } });
    return 'removed';
  }

  /** This process's worker once started (tests pause it to choose which replica takes a job). */
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
    // A job failed by BullMQ itself (stalled twice) never reaches the work: fail it in the store.
    this.worker.on('failed', (job) => {
      if (job?.id) void this.interrupted(job.id).catch((err) => this.logger.error({ err, jobId: job.id }, 'interrupted job not recorded'));
    });
    return this.worker;
  }

  private async interrupted(id: string): Promise<void> {
    const doc = await this.reload(id);
    if (!doc || doc.status !== 'running') return;
    if ((await this.settleDraft(doc)) === 'kept') return;
    await this.whileRunning(id, this.finished({ status: 'failed', error: GENERATION_MSG.interrupted, ...this.nothingKept(doc), settled: true }));
  }

  private async process(job: Job<JobPayload>, token: string | undefined, work: JobWork): Promise<void> {
    const id = String(job.id);
    const doc = await this.reload(id);
    if (!doc || doc.status !== 'running') {
      if (doc) await this.model.updateOne({ _id: id }, { $set: { settled: true } });
      return;
    }
    // Taken over from a replica that died: what it saved whole is kept, anything half-made goes.
    if ((await this.settleDraft(doc)) === 'kept') return;

    const controller = new AbortController();
    this.running.set(id, controller);
    const watch = setInterval(() => {
      this.model
        .findById(id)
        .select({ status: 1 })
        .lean<Pick<JobDoc, 'status'>>()
        .then((now) => {
          if (!now || now.status !== 'running') controller.abort('cancelled');
        })
        .catch(() => undefined);
    }, CANCEL_POLL_MS);
    let progress = doc.progress;
    const handle: JobHandle = {
      signal: controller.signal,
      stage: async (stage, value) => {
        progress = Math.max(progress, Math.min(100, Math.round(value)));
        await this.whileRunning(id, this.changes({ stage, progress }));
      },
      drafting: async (courseId) => {
        await this.whileRunning(id, this.changes({ draftCourseId: courseId }));
      },
      setCourseId: async (courseId) => {
        await this.whileRunning(id, this.changes({ courseId }));
      },
      propose: async (proposal, version) => {
        await this.whileRunning(id, this.changes({ proposal, hasProposal: true, nodeVersion: version }));
      },
    };
    try {
      await work(job.data, handle);
      if (controller.signal.aborted) throw new GenerationCancelled();
      const kept = await this.whileRunning(
        id,
        this.finished({ status: 'succeeded', stage: 'done', progress: 100, draftCourseId: null }),
      );
      // Cancelled on another replica between the last write and here: nothing is kept.
      if (!kept && doc.kind === 'course') await this.settleCancelled(id);
    } catch (err) {
      if (controller.signal.reason === 'shutdown') {
        // This replica is stopping (a rolling deploy): the work took back its draft; another replica starts it afresh.
        await this.whileRunning(id, this.changes({ stage: 'structure', progress: 0, draftCourseId: null }));
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      await this.fail(id, doc, err, controller.signal.aborted);
    } finally {
      clearInterval(watch);
      this.running.delete(id);
    }
    await this.model.updateOne({ _id: id }, { $set: { settled: true } });
  }

  /** A course job cancelled after its last write: its draft is taken back. */
  private async settleCancelled(id: string): Promise<void> {
    const doc = await this.reload(id);
    if (doc?.courseId) await removeDraft(this.content, new Types.ObjectId(doc.courseId));
    if (doc?.draftCourseId) await removeDraft(this.content, new Types.ObjectId(doc.draftCourseId));
    await this.model.updateOne({ _id: id }, { $set: { courseId: null, draftCourseId: null } });
  }

  private async fail(id: string, doc: JobDoc, err: unknown, aborted: boolean): Promise<void> {
    if (aborted || err instanceof GenerationCancelled) {
      await this.whileRunning(id, this.finished({ status: 'cancelled', error: GENERATION_MSG.cancelled, ...this.nothingKept(doc) }));
      return;
    }
    if (!(err instanceof GenerationFailure)) this.logger.error({ err, jobId: id }, 'generation failed');
    const message = err instanceof GenerationFailure ? err.message : GENERATION_MSG.providerFailed;
    await this.whileRunning(id, this.finished({ status: 'failed', error: message, ...this.nothingKept(doc), draftCourseId: null }));
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
    await this.stopWorker();
    await this.queue.close();
  }
}
