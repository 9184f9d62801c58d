import Router from '@koa/router';
import type { Model } from 'mongoose';
import { isValidObjectId } from 'mongoose';
import { z } from 'zod';
import { PRIVACY_MSG, pageOffset, type Page, type SubjectRequest } from '@portal/contracts';
import {
  badRequest,
  conflict,
  implement,
  notFound,
  parse,
  requireInternal,
  storedBytes,
  type DeclaredHandler,
  type ServiceContext,
} from '@portal/service-kit';
import type { SubjectRequestDoc } from '../../models/subjectRequest';
import type { UserDoc } from '../../models/user';
import * as declared from './declarations';

export const presentSubjectRequest = (r: SubjectRequestDoc): SubjectRequest => ({
  id: String(r._id),
  kind: r.kind,
  reason: r.reason,
  status: r.status,
  user: { id: r.userId, fullName: r.userName, email: r.userEmail },
  filedBy: r.filedBy,
  createdAt: r.createdAt.toISOString(),
  completedAt: r.completedAt ? r.completedAt.toISOString() : null,
  completedBy: r.completedBy,
  summary: r.summary ?? null,
  hasAct: !!r.act,
});

const doneSchema = z.object({
  completedBy: z.string().min(1),
  summary: z.record(z.string(), z.number()).nullable().default(null),
  /** The act, base64 (anonymisation only). */
  act: z.string().max(5_000_000).nullable().default(null),
  /** The person's name after anonymisation: the alias. */
  alias: z.string().max(200).optional(),
});

/** A request by its id, or the 404 that names it. */
const loader = (requests: Model<SubjectRequestDoc>) => async (id: string) => {
  const found = isValidObjectId(id) ? await requests.findById(id).lean<SubjectRequestDoc>() : null;
  if (!found) throw notFound(PRIVACY_MSG.requestNotFound);
  return found;
};

/**
 * The data-subject requests' public routes (ADMIN), each beside its declaration
 * (`declarations.ts`): filed by a withdrawn consent or by an ADMIN, listed, and their acts read.
 */
export function subjectRequestRoutes({
  requests,
  users,
}: {
  requests: Model<SubjectRequestDoc>;
  users: Model<UserDoc>;
}): DeclaredHandler[] {
  const load = loader(requests);
  return [
    implement(declared.listSubjectRequests, async (_ctx, { query }) => {
      const filter = query.status ? { status: query.status } : {};
      const [rows, total] = await Promise.all([
        requests
          .find(filter, { act: 0 })
          .sort({ createdAt: -1, _id: -1 })
          .skip(pageOffset(query))
          .limit(query.limit)
          .lean<SubjectRequestDoc[]>(),
        requests.countDocuments(filter, { limit: 10_000 }),
      ]);
      const body: Page<SubjectRequest> = {
        // The act itself stays out of the list: whether there is one is enough.
        data: rows.map((r) => ({ ...presentSubjectRequest(r), hasAct: r.status === 'done' && r.kind === 'anonymise' })),
        total,
        page: query.page,
        limit: query.limit,
      };
      return body;
    }),

    implement(declared.createSubjectRequest, async (ctx, { body: { userId, kind }, record }) => {
      if (kind === 'anonymise' && userId === ctx.state.user.id) throw badRequest(PRIVACY_MSG.selfAnonymise, 'userId');
      const person = await users.findById(userId).lean<UserDoc>();
      if (!person) throw notFound(PRIVACY_MSG.userGone);
      const created = await requests.create({
        userId,
        userName: person.fullName,
        userEmail: person.email,
        kind,
        reason: 'admin',
        filedBy: ctx.state.user.id,
      });
      record({
        code: 'subjectRequest.filed',
        data: { kind, reason: 'admin', email: person.email, userId },
        entityId: String(created._id),
      });
      return presentSubjectRequest(created.toObject());
    }),

    implement(declared.getSubjectRequestAct, async (ctx, { params }) => {
      const found = await load(params.id);
      if (!found.act) throw notFound(PRIVACY_MSG.noAct);
      ctx.set('Content-Type', 'application/pdf');
      ctx.set('Content-Disposition', `attachment; filename="act-${String(found._id)}.pdf"`);
      ctx.body = storedBytes(found.act);
    }),
  ];
}

/**
 * /internal/subject-requests: the gateway carries a request out (it asks every service), then
 * reports back here.
 */
export function subjectRequestsRouter(service: ServiceContext, requests: Model<SubjectRequestDoc>): Router {
  const load = loader(requests);
  const internal = new Router({ prefix: '/internal/subject-requests' });
  internal.use(requireInternal(service.config.INTERNAL_TOKEN));
  internal.get('/:id', async (ctx) => {
    ctx.body = presentSubjectRequest(await load(ctx.params.id));
  });
  /**
   * The number of the request's act, «2026-000123»: the next of the year's counter (Moscow time),
   * given once; asked again (an anonymisation run again) it is the same number.
   */
  internal.post('/:id/act-number', async (ctx) => {
    const found = await load(ctx.params.id);
    if (!found.actNumber) {
      const year = new Date(Date.now() + 3 * 3_600_000).getUTCFullYear();
      const counters = service.store.collection<{ _id: string; n: number }>('act_counters');
      const next = await counters.findOneAndUpdate(
        { _id: `subject-act-${year}` },
        { $inc: { n: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      const number = `${year}-${String(next?.n ?? 1).padStart(6, '0')}`;
      // Two runs at once: the first number written stays (the other is skipped, never given twice).
      await requests.updateOne({ _id: found._id, actNumber: null }, { $set: { actNumber: number } });
    }
    const numbered = await requests.findById(found._id, { actNumber: 1 }).lean<Pick<SubjectRequestDoc, 'actNumber'>>();
    ctx.body = { number: numbered!.actNumber };
  });

  /** The gateway has carried a request out: what changed, the act, and who did it. */
  internal.post('/:id/done', async (ctx) => {
    const found = await load(ctx.params.id);
    if (found.status === 'done') throw conflict(PRIVACY_MSG.alreadyDone);
    const done = parse(doneSchema, ctx.request.body);
    const renamed = done.alias ? { userName: done.alias, userEmail: '' } : {};
    await requests.updateOne(
      { _id: found._id },
      {
        $set: {
          status: 'done',
          completedBy: done.completedBy,
          completedAt: new Date(),
          summary: done.summary,
          act: done.act ? Buffer.from(done.act, 'base64') : null,
          ...renamed,
        },
      },
    );
    // Every request about this person names them no more once they are forgotten.
    if (done.alias) await requests.updateMany({ userId: found.userId }, { $set: renamed });
    ctx.body = presentSubjectRequest((await requests.findById(found._id).lean<SubjectRequestDoc>())!);
  });

  return internal;
}
