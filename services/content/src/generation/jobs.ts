import { randomUUID } from 'node:crypto';
import {
  GENERATION_MSG,
  isValidId,
  invalidIdMessage,
  type GenerationJob,
  type GenerationKind,
  type GenerationProposal,
  type GenerationSource,
  type GenerationStage,
} from '@portal/contracts';
import { badRequest, type Logger, type Principal } from '@portal/service-kit';
import { GenerationCancelled, GenerationFailure } from './failure';

/** Finished jobs stay readable this long (the author may come back to a proposal), then go. */
export const FINISHED_JOB_TTL_MS = 30 * 60 * 1000;
/** DELETE waits this long for a cancelled job to take back what it wrote before answering. */
const CANCEL_WAIT_MS = 5000;

/** What a job's work may do to the job while it runs. */
export interface JobHandle {
  readonly signal: AbortSignal;
  stage(stage: GenerationStage, progress: number): void;
  setCourseId(courseId: string): void;
  /** A node job's result; `version` is the node's state it was made from (kept out of the answer). */
  propose(proposal: GenerationProposal, version: string): void;
}

export interface JobRecord {
  job: GenerationJob;
  ownerId: string;
  controller: AbortController;
  /** Settles when the work has stopped and cleaned up after itself. */
  done: Promise<void>;
  nodeVersion: string | null;
  finishedAt: number | null;
}

export interface JobStart {
  owner: Principal;
  kind: GenerationKind;
  source: GenerationSource;
  notice: string;
  courseId: string | null;
  targetId: string | null;
}

/** A job that did not succeed has no proposal, and a course job no course (its draft was taken back). */
const nothingKept = (record: JobRecord): Partial<GenerationJob> => ({
  proposal: null,
  courseId: record.job.kind === 'course' ? null : record.job.courseId,
});

/** A job's public face: a copy, so callers never hold the live record. */
export const presentJob = (record: JobRecord): GenerationJob => ({
  ...record.job,
  proposal: record.job.proposal ? structuredClone(record.job.proposal) : null,
});

/**
 * Generation jobs of this content process, in memory. A restart loses running and finished jobs:
 * their ids then answer 404 and the client says the generation was interrupted (nothing half-made
 * is left, because a course is written last and a proposal changes nothing until accepted).
 */
export class GenerationJobs {
  private readonly jobs = new Map<string, JobRecord>();

  constructor(private readonly logger: Logger) {}

  start(input: JobStart, work: (handle: JobHandle) => Promise<void>): JobRecord {
    this.sweep();
    const now = new Date().toISOString();
    const controller = new AbortController();
    const record: JobRecord = {
      job: {
        id: randomUUID(),
        kind: input.kind,
        status: 'running',
        stage: 'structure',
        progress: 0,
        source: input.source,
        notice: input.notice,
        error: null,
        courseId: input.courseId,
        targetId: input.targetId,
        proposal: null,
        createdAt: now,
        updatedAt: now,
      },
      ownerId: input.owner.id,
      controller,
      done: Promise.resolve(),
      nodeVersion: null,
      finishedAt: null,
    };
    const touch = (changes: Partial<GenerationJob>) => {
      if (record.job.status !== 'running') return;
      Object.assign(record.job, changes, { updatedAt: new Date().toISOString() });
    };
    const handle: JobHandle = {
      signal: controller.signal,
      stage: (stage, progress) => touch({ stage, progress: Math.max(record.job.progress, Math.min(100, Math.round(progress))) }),
      setCourseId: (courseId) => touch({ courseId }),
      propose: (proposal, version) => {
        touch({ proposal });
        record.nodeVersion = version;
      },
    };
    this.jobs.set(record.job.id, record);
    // The work starts on the next tick, so the 202 answer goes out with the job as it was created.
    record.done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => work(handle))
      .then(() => {
        if (controller.signal.aborted) throw new GenerationCancelled();
        this.finish(record, { status: 'succeeded', stage: 'done', progress: 100 });
      })
      .catch((err: unknown) => this.fail(record, err));
    return record;
  }

  private finish(record: JobRecord, changes: Partial<GenerationJob>): void {
    if (record.job.status !== 'running') return;
    Object.assign(record.job, changes, { updatedAt: new Date().toISOString() });
    record.finishedAt = Date.now();
  }

  private fail(record: JobRecord, err: unknown): void {
    if (record.controller.signal.aborted || err instanceof GenerationCancelled) {
      this.finish(record, { status: 'cancelled', error: GENERATION_MSG.cancelled, ...nothingKept(record) });
      return;
    }
    if (!(err instanceof GenerationFailure)) this.logger.error({ err, jobId: record.job.id }, 'generation failed');
    const message = err instanceof GenerationFailure ? err.message : GENERATION_MSG.providerFailed;
    this.finish(record, { status: 'failed', error: message, ...nothingKept(record) });
  }

  /** A job by id (400 for an id that breaks the id rule); whether the caller may use it is the policy's call. */
  find(rawId: unknown): JobRecord | undefined {
    this.sweep();
    if (!isValidId(rawId)) throw badRequest(invalidIdMessage('id'), 'id');
    return this.jobs.get(rawId);
  }

  /** Cancels a running job and waits (bounded) until it has taken back what it wrote. */
  async cancel(record: JobRecord): Promise<void> {
    record.controller.abort();
    this.finish(record, { status: 'cancelled', error: GENERATION_MSG.cancelled, ...nothingKept(record) });
    await Promise.race([record.done, new Promise((resolve) => setTimeout(resolve, CANCEL_WAIT_MS).unref())]);
  }

  /** A proposal rejected or accepted is gone; the job stays readable as succeeded. */
  clearProposal(record: JobRecord): void {
    record.job.proposal = null;
    record.nodeVersion = null;
    record.job.updatedAt = new Date().toISOString();
  }

  /** An accept that failed for a passing reason (the store was away) leaves the proposal to try again. */
  restoreProposal(record: JobRecord, proposal: GenerationProposal, version: string): void {
    record.job.proposal = proposal;
    record.nodeVersion = version;
    record.job.updatedAt = new Date().toISOString();
  }

  private sweep(now = Date.now()): void {
    for (const [id, record] of this.jobs) {
      if (record.finishedAt !== null && now - record.finishedAt > FINISHED_JOB_TTL_MS) this.jobs.delete(id);
    }
  }

  /** On shutdown: stop every running job and let each clean up. */
  async shutdown(): Promise<void> {
    const running = [...this.jobs.values()].filter((r) => r.job.status === 'running');
    await Promise.all(running.map((r) => this.cancel(r)));
  }
}
