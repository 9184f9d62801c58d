import Router from '@koa/router';
import type { Model } from 'mongoose';
import { isValidObjectId } from 'mongoose';
import { z } from 'zod';
import { LEARNER_ROLES, ROLES, STUDY_ROLES, pageOffset, pagingFields, type AuthStats } from '@portal/contracts';
import {
  cappedTotal,
  countFigure,
  lowerBoundsOf,
  notFound,
  op,
  parse,
  requireInternal,
  type ServiceContext,
} from '@portal/service-kit';
import { localLookup } from '../../lookup';
import { toPrincipal } from '../../presenters/user';
import { NOT_LINK_CANDIDATE, type UserDoc } from '../../models/user';

const internalUsersQuerySchema = z.object({
  email: z.string().trim().toLowerCase().max(254).optional(),
  ids: z
    .string()
    .max(100 * 25)
    .optional()
    .transform((v) => (v ? v.split(',').filter(Boolean).slice(0, 100) : undefined)),
});

/** An assignment's audience: people who study, of a department, of a role, or named by id (at most 100 a page). */
const audienceQuerySchema = z.object({
  ...pagingFields(50),
  department: z.string().trim().min(1).max(120).optional(),
  role: z.enum(ROLES).optional(),
  ids: internalUsersQuerySchema.shape.ids,
});

/** Routes for other services only; the gateway never exposes /internal. */
export function internalRouter(service: ServiceContext, users: Model<UserDoc>): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));

  /**
   * People named by email or by ids (comma separated, at most 100), for a service that shows or
   * checks them (the content service's co-authors). Unknown ones are simply not in the answer.
   */
  router.get('/users', async (ctx) => {
    const { email, ids } = parse(internalUsersQuerySchema, ctx.query);
    const valid = (ids ?? []).filter((id) => isValidObjectId(id));
    const filter = email ? { email } : { _id: op({ $in: valid }) };
    const found = email || valid.length ? await users.find(filter).limit(100).lean<UserDoc[]>() : [];
    ctx.body = { data: found.map(toPrincipal) };
  });

  /**
   * One page of an assignment's audience (the progress service resolves it when it lists people, so
   * someone who joins a department later is in it): people who study, newest first, with their
   * department, and the total, counted to LIST_TOTAL_CAP at most (`totalExact: false` past it).
   */
  router.get('/audience', async (ctx) => {
    const { page, limit, department, role, ids } = parse(audienceQuerySchema, ctx.query);
    const filter: Record<string, unknown> = { role: op({ $in: role ? [role] : [...STUDY_ROLES] }), ...NOT_LINK_CANDIDATE };
    if (department) filter.department = department;
    if (ids) filter._id = op({ $in: ids.filter((id) => isValidObjectId(id)) });
    const [rows, counted] = await Promise.all([
      users.find(filter).sort({ createdAt: -1, _id: -1 }).skip(pageOffset({ page, limit })).limit(limit).lean<UserDoc[]>(),
      cappedTotal(users, filter),
    ]);
    ctx.body = { data: rows.map(toPrincipal), ...counted };
  });

  /** The person behind a session (`?session=<sid>`): 404 when the user is gone or the session ended. */
  router.get('/users/:id', async (ctx) => {
    const session = typeof ctx.query.session === 'string' ? ctx.query.session : '';
    const principal = session ? await localLookup(service.store)(ctx.params.id, session) : null;
    if (!principal) throw notFound();
    ctx.body = principal;
  });

  /** For the dashboard: the learners, and how many joined in the last 30 days and the 30 before (bounded counts). */
  router.get('/stats', async (ctx) => {
    const students = await countFigure(users, { role: op({ $in: [...LEARNER_ROLES] }), ...NOT_LINK_CANDIDATE }, 'createdAt');
    const body: AuthStats = {
      totalStudents: students.count,
      newStudents: students.change,
      ...lowerBoundsOf({ totalStudents: students }),
    };
    ctx.body = body;
  });

  return router;
}
