import { isValidObjectId, type Model } from 'mongoose';
import { DIRECTORY_MSG, pageOffset, type DirectoryPersonOutcome, type DirectoryRun, type Page } from '@portal/contracts';
import { badRequest, conflict, implement, notFound, type DeclaredHandler, type ServiceContext } from '@portal/service-kit';
import type { AuthConfig } from '../../config';
import { directoryOutcomeModel, directoryRunModel, type DirectoryOutcomeDoc, type DirectoryRunDoc } from '../../directory/models';
import { directoryQueue, enqueueRun, presentRun } from '../../directory/runs';
import { directorySettingsOf, presentDirectoryConfig } from '../../directory/settings';
import * as declared from './declarations';

/**
 * The directory sync's screen (ADMIN): the configuration as it is (never the bind password), the
 * runs, a run's people, and a new run (preview or apply) through the queue every replica shares.
 */
export function directoryRoutes(service: ServiceContext<AuthConfig>): DeclaredHandler[] {
  const runs: Model<DirectoryRunDoc> = directoryRunModel(service.store);
  const outcomes: Model<DirectoryOutcomeDoc> = directoryOutcomeModel(service.store);
  const settings = directorySettingsOf(service.config);
  const findRun = async (id: string) => {
    const run = isValidObjectId(id) ? await runs.findById(id).lean<DirectoryRunDoc>() : null;
    if (!run) throw notFound(DIRECTORY_MSG.runNotFound);
    return run;
  };

  return [
    implement(declared.getDirectoryConfig, () => presentDirectoryConfig(service.config)),

    implement(declared.listDirectoryRuns, async (_ctx, { query }) => {
      const [rows, total] = await Promise.all([
        runs.find({}).sort({ createdAt: -1, _id: -1 }).skip(pageOffset(query)).limit(query.limit).lean<DirectoryRunDoc[]>(),
        runs.countDocuments({}),
      ]);
      const body: Page<DirectoryRun> = { data: rows.map(presentRun), total, page: query.page, limit: query.limit };
      return body;
    }),

    implement(declared.getDirectoryRun, async (_ctx, { params }) => presentRun(await findRun(params.id))),

    implement(declared.listDirectoryRunPeople, async (_ctx, { params, query, record }) => {
      const run = await findRun(params.id);
      const filter = { runId: run._id, ...(query.outcome ? { outcome: query.outcome } : {}) };
      const [rows, total] = await Promise.all([
        outcomes.find(filter).sort({ n: 1 }).skip(pageOffset(query)).limit(query.limit).lean<DirectoryOutcomeDoc[]>(),
        outcomes.countDocuments(filter),
      ]);
      // 152-FZ: who read whose personal data. One record per page read, never one per row.
      if (rows.length)
        record({
          code: 'directoryRun.peopleViewed',
          data: { page: query.page, records: rows.length },
          entityId: String(run._id),
        });
      const body: Page<DirectoryPersonOutcome> = {
        data: rows.map((r) => ({
          outcome: r.outcome,
          directoryId: r.directoryId,
          userId: r.userId ? String(r.userId) : null,
          email: r.email,
          fullName: r.fullName,
          department: r.department,
          position: r.position,
          role: r.role,
          reason: r.reason,
        })),
        total,
        page: query.page,
        limit: query.limit,
      };
      return body;
    }),

    implement(declared.startDirectoryRun, async (ctx, { body: { mode, previewId } }) => {
      if (!settings) throw conflict(DIRECTORY_MSG.notConfigured);
      if (previewId && mode !== 'apply') throw badRequest(DIRECTORY_MSG.previewIdForApply, 'previewId');
      if (previewId) {
        const preview = isValidObjectId(previewId) ? await runs.findOne({ _id: previewId, mode: 'preview' }).lean() : null;
        if (!preview) throw notFound(DIRECTORY_MSG.previewNotFound);
      }
      const { user } = ctx.state;
      // A queue for the one add (runs are started by hand, seldom): nothing stays open per process.
      const queue = directoryQueue(service);
      try {
        const run = await enqueueRun(queue, runs, {
          mode,
          trigger: 'admin',
          by: { id: user.id, fullName: user.fullName, email: user.email },
          previewId: previewId ?? null,
        });
        return presentRun(run);
      } finally {
        await queue.close();
      }
    }),
  ];
}
