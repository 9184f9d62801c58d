import Router from '@koa/router';
import type { Model } from 'mongoose';
import { ROLES, ROLE_LABELS, pageOffset, userListQuerySchema, userUpdateSchema, type Page, type User } from '@portal/contracts';
import { escapeRegExp, op, parse, requireRole, takeExpectedVersion, type ServiceContext } from '@portal/service-kit';
import { isValidObjectId } from 'mongoose';
import { changeEndsSessions, endSessionsOf } from '../../commands/sessions';
import { deleteUser, updateUser } from '../../commands/users';
import type { UserDoc } from '../../models/user';
import { DIRECTORY_ROLES } from '../../policies/users';
import { presentUser } from '../../presenters/user';
import { notFound } from '@portal/service-kit';

const userId = (id: string): string => {
  if (!isValidObjectId(id)) throw notFound('Пользователь не найден');
  return id;
};

export function usersRouter(service: ServiceContext, users: Model<UserDoc>, announce: (id: string) => Promise<void>): Router {
  const router = new Router({ prefix: '/api/users' });
  const { audit, authenticate } = service;

  router.get('/', authenticate, requireRole(...DIRECTORY_ROLES), async (ctx) => {
    const { page, limit, search, role } = parse(userListQuerySchema, ctx.query);
    const filter: Record<string, unknown> = {};
    if (role) filter.role = role;
    if (search) {
      const pattern = new RegExp(escapeRegExp(search), 'i');
      // A role is found by its code (CURATOR) or by the Russian label people see (Куратор).
      const roles = ROLES.filter((r) => pattern.test(r) || pattern.test(ROLE_LABELS[r]));
      filter.$or = [{ fullName: pattern }, { email: pattern }, ...(roles.length ? [{ role: op({ $in: roles }) }] : [])];
    }
    const [rows, total] = await Promise.all([
      users
        .find(filter)
        // _id breaks ties between accounts made in the same millisecond (a seed), so pages never overlap.
        .sort({ createdAt: -1, _id: -1 })
        .skip(pageOffset({ page, limit }))
        .limit(limit)
        .lean<UserDoc[]>(),
      users.countDocuments(filter),
    ]);
    const body: Page<User> = { data: rows.map(presentUser), total, page, limit };
    ctx.body = body;
  });

  router.get('/:id', authenticate, requireRole(...DIRECTORY_ROLES), async (ctx) => {
    const user = await users.findById(userId(ctx.params.id)).lean<UserDoc>();
    if (!user) throw notFound('Пользователь не найден');
    audit.publish({
      action: 'read',
      entity: 'user',
      entityId: String(user._id),
      details: `Просмотр данных пользователя ${user.email}`,
      actor: ctx.state.user,
    });
    ctx.body = presentUser(user);
  });

  router.patch('/:id', authenticate, requireRole(...DIRECTORY_ROLES), async (ctx) => {
    const id = userId(ctx.params.id);
    const expected = takeExpectedVersion(ctx);
    const changes = parse(userUpdateSchema, ctx.request.body);
    const { before, after } = await updateUser(users, ctx.state.user, id, changes, expected);
    // A person who changes their own email stays signed in here, as after a password change; their
    // other sessions end. Anyone else's change ends all of that person's sessions.
    const self = id === ctx.state.user.id;
    if (changeEndsSessions(before, after)) await endSessionsOf(users.db, id, self ? ctx.state.sessionId : undefined);
    await announce(id);
    const roleNote = before.role !== after.role ? `, роль ${before.role} → ${after.role}` : '';
    audit.publish({
      action: 'update',
      entity: 'user',
      entityId: id,
      details: `Изменён пользователь ${after.email}${roleNote}`,
      actor: ctx.state.user,
    });
    ctx.body = presentUser(after);
  });

  router.delete('/:id', authenticate, requireRole('ADMIN'), async (ctx) => {
    const removed = await deleteUser(users, ctx.state.user, userId(ctx.params.id));
    await announce(String(removed._id));
    audit.publish({
      action: 'delete',
      entity: 'user',
      entityId: String(removed._id),
      details: `Удалён пользователь ${removed.email}`,
      actor: ctx.state.user,
    });
    ctx.status = 204;
  });

  return router;
}
