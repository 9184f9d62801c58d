import type { Job } from 'bullmq';
import { Queue, Worker } from 'bullmq';
import type { Connection, Model } from 'mongoose';
import { DIRECTORY_MSG, formatMessage, type DirectoryRun, type DirectoryRunMode } from '@portal/contracts';
import {
  announceUserChange,
  clock,
  closeWorker,
  createRedis,
  op,
  watchWorker,
  type AuditPublisher,
  type Logger,
  type ServiceContext,
} from '@portal/service-kit';
import type { AuthConfig } from '../config';
import { userModel, type UserDoc } from '../models/user';
import { directoryOutcomeModel, directoryRunModel, type DirectoryOutcomeDoc, type DirectoryRunDoc } from './models';
import { DirectoryReadError, readDirectory } from './read';
import { directorySettingsOf, type DirectorySettings } from './settings';
import { applyPlan, planSync, type Plan } from './sync';

/** The queue every run goes through: the scheduler's and the ADMIN's, one at a time across all replicas. */
export const DIRECTORY_QUEUE = 'directory-sync';
const SCHEDULER_ID = 'directory-sync';
const OUTCOME_CHUNK = 1000;

export interface RunDeps {
  store: Connection;
  users: Model<UserDoc>;
  runs: Model<DirectoryRunDoc>;
  outcomes: Model<DirectoryOutcomeDoc>;
  settings: DirectorySettings;
  audit: AuditPublisher;
  logger: Logger;
  announce: (id: string) => Promise<void>;
}

export const presentRun = (run: DirectoryRunDoc): DirectoryRun => ({
  id: String(run._id),
  mode: run.mode,
  status: run.status,
  trigger: run.trigger,
  by: run.by ? { id: run.by.id, fullName: run.by.fullName } : null,
  previewId: run.previewId ?? null,
  read: run.read,
  pages: run.pages,
  counts: run.counts,
  error: run.error,
  createdAt: run.createdAt.toISOString(),
  startedAt: run.startedAt?.toISOString() ?? null,
  finishedAt: run.finishedAt?.toISOString() ?? null,
});

/**
 * Runs one sync: reads the whole directory first (a failure there ends the run `failed` and changes
 * nobody), computes every outcome, and for an apply writes them; then keeps the outcomes and the
 * counts on the run. An applied run is audited with its counts (never with a setting of the sync).
 */
export async function executeRun(deps: RunDeps, runId: string): Promise<DirectoryRunDoc | null> {
  const { runs, outcomes } = deps;
  const run = await runs
    .findOneAndUpdate(
      { _id: runId, status: op({ $in: ['queued', 'running'] as DirectoryRunDoc['status'][] }) },
      { $set: { status: 'running', startedAt: clock.now(), error: null } },
      { returnDocument: 'after' },
    )
    .lean<DirectoryRunDoc>();
  if (!run) return null;
  // A run taken over after its replica stopped starts again from nothing.
  await outcomes.deleteMany({ runId: run._id });
  const fail = async (error: string) =>
    runs
      .findByIdAndUpdate(run._id, { $set: { status: 'failed', error, finishedAt: clock.now() } }, { returnDocument: 'after' })
      .lean<DirectoryRunDoc>();

  let people;
  try {
    people = await readDirectory(deps.settings);
  } catch (err) {
    if (!(err instanceof DirectoryReadError)) throw err;
    deps.logger.warn({ run: runId, err: err.message }, 'directory sync: read failed');
    return fail(err.message);
  }
  let plan: Plan;
  const now = clock.now();
  let writing = false;
  try {
    plan = await planSync(deps.users, people.people, deps.settings, now);
    writing = run.mode === 'apply';
    if (writing) plan = await applyPlan(deps.store, deps.users, plan, now, deps.announce);
  } catch (err) {
    deps.logger.error({ run: runId, err: (err as Error).message }, 'directory sync: store failed');
    return fail(
      writing ? formatMessage(DIRECTORY_MSG.applyFailed, { reason: 'ошибка хранилища портала' }) : DIRECTORY_MSG.storeFailed,
    );
  }
  const listed = plan.planned.filter((p) => p.outcome !== 'same');
  for (let i = 0; i < listed.length; i += OUTCOME_CHUNK)
    await outcomes.insertMany(
      listed.slice(i, i + OUTCOME_CHUNK).map((p) => ({
        runId: run._id,
        n: p.n,
        outcome: p.outcome,
        directoryId: p.directoryId,
        userId: p.user?._id ?? null,
        email: p.wanted?.email ?? p.user?.email ?? '',
        fullName: p.wanted?.fullName ?? p.user?.fullName ?? '',
        department: p.wanted?.department ?? p.user?.department ?? '',
        position: p.wanted?.position ?? p.user?.position ?? '',
        role: p.wanted?.role ?? p.user?.role ?? null,
        reason: p.reason,
      })),
      { ordered: false },
    );
  const done = await runs
    .findByIdAndUpdate(
      run._id,
      { $set: { status: 'done', counts: plan.counts, read: people.people.length, pages: people.pages, finishedAt: clock.now() } },
      { returnDocument: 'after' },
    )
    .lean<DirectoryRunDoc>();
  if (run.mode === 'apply')
    deps.audit.publish({
      code: 'directory.synced',
      data: { trigger: run.trigger, read: people.people.length, counts: plan.counts },
      entityId: String(run._id),
      actor: run.by ? { id: run.by.id, fullName: run.by.fullName, email: run.by.email } : null,
    });
  return done;
}

/** The queue the routes add on-demand runs to (on the request connection). */
export function directoryQueue(ctx: ServiceContext<AuthConfig>): Queue {
  const queue = new Queue(DIRECTORY_QUEUE, { connection: ctx.redis, prefix: ctx.config.QUEUE_PREFIX });
  queue.on('error', () => undefined);
  return queue;
}

/** Records a run and hands it to the queue; a replica's worker takes it when no other run is going. */
export async function enqueueRun(
  queue: Queue,
  runs: Model<DirectoryRunDoc>,
  {
    mode,
    trigger,
    by,
    previewId,
  }: { mode: DirectoryRunMode; trigger: 'schedule' | 'admin'; by: DirectoryRunDoc['by']; previewId: string | null },
): Promise<DirectoryRunDoc> {
  const run = await runs.create({ mode, trigger, by, previewId, status: 'queued' });
  await queue.add('run', { runId: String(run._id) }, { jobId: String(run._id), removeOnComplete: 100, removeOnFail: 100 });
  return run.toObject();
}

export const runDeps = (ctx: ServiceContext<AuthConfig>, settings: DirectorySettings): RunDeps => ({
  store: ctx.store,
  users: userModel(ctx.store),
  runs: directoryRunModel(ctx.store),
  outcomes: directoryOutcomeModel(ctx.store),
  settings,
  audit: ctx.audit,
  logger: ctx.logger,
  announce: async (id) => {
    ctx.principals.evict(id);
    await announceUserChange(ctx.redis, id);
  },
});

/**
 * The sync's worker and, when LDAP_SYNC_EVERY is not 0, its scheduler, when LDAP_URL is set. Every
 * replica starts both: the scheduler is one however many upsert it, and the queue's global
 * concurrency of 1 lets one run go at a time across all replicas, whether the scheduler or an ADMIN
 * started it. Redis being away is logged, never thrown. Returns the stop.
 */
export async function startDirectorySync(ctx: ServiceContext<AuthConfig>): Promise<() => Promise<void>> {
  const settings = directorySettingsOf(ctx.config);
  if (!settings) return async () => undefined;
  const deps = runDeps(ctx, settings);
  const prefix = ctx.config.QUEUE_PREFIX;
  const connection = createRedis(ctx.config.REDIS_URL, ctx.logger);
  const queue = new Queue(DIRECTORY_QUEUE, { connection, prefix });
  queue.on('error', () => undefined);
  const logged = (what: string) => (err: Error) => ctx.logger.error({ err: err.message }, `directory sync: ${what}`);
  // Before this replica's worker takes a job: one run at a time across all replicas.
  await queue.setGlobalConcurrency(1).catch(logged('global concurrency not set'));
  if (settings.everyMs > 0)
    await queue
      .upsertJobScheduler(
        SCHEDULER_ID,
        { every: settings.everyMs },
        { name: 'scheduled', opts: { removeOnComplete: 100, removeOnFail: 100 } },
      )
      .catch(logged('not scheduled'));
  else await queue.removeJobScheduler(SCHEDULER_ID).catch(logged('schedule not removed'));
  const worker = new Worker(
    DIRECTORY_QUEUE,
    async (job: Job<{ runId?: string }>) => {
      let runId = job.data?.runId;
      if (!runId) {
        const run = await deps.runs.create({ mode: 'apply', trigger: 'schedule', by: null, previewId: null, status: 'queued' });
        runId = String(run._id);
        await job.updateData({ runId });
      }
      const run = await executeRun(deps, runId);
      return run ? { status: run.status, counts: run.counts } : null;
    },
    { connection, prefix, concurrency: 1 },
  );
  worker.on('failed', (job, err) => {
    ctx.logger.warn({ queue: DIRECTORY_QUEUE, err: err.message }, 'directory sync failed');
    const runId = (job?.data as { runId?: string } | undefined)?.runId;
    // A run whose job failed for good (not a read failure: that ends the run itself) says so.
    if (runId && job && job.attemptsMade >= (job.opts.attempts ?? 1))
      void deps.runs
        .updateOne(
          { _id: runId, status: op({ $in: ['queued', 'running'] as DirectoryRunDoc['status'][] }) },
          { $set: { status: 'failed', error: DIRECTORY_MSG.interrupted, finishedAt: clock.now() } },
        )
        .catch(() => undefined);
  });
  worker.on('error', () => undefined);
  watchWorker(worker);
  return async () => {
    await closeWorker(worker);
    await queue.close();
    connection.disconnect();
  };
}
