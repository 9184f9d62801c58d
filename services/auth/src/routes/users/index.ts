import Router from '@koa/router';
import type { Model } from 'mongoose';
import {
  ROLES,
  ROLE_LABELS,
  STUDY_ROLES,
  departmentListQuerySchema,
  USERS_EXPORT_HEADER,
  exportFileName,
  userExportQuerySchema,
  userListQuerySchema,
  userUpdateSchema,
  type Department,
  type Page,
  type Role,
  type User,
} from '@portal/contracts';
import {
  exportColumns,
  exportRows,
  escapeRegExp,
  op,
  parse,
  readPage,
  requireRole,
  rowsOf,
  sendExport,
  takeExpectedVersion,
  type ServiceContext,
} from '@portal/service-kit';
import { isValidObjectId } from 'mongoose';
import { changeEndsSessions, endSessionsOf } from '../../commands/sessions';
import { deleteUser, updateUser } from '../../commands/users';
import { NOT_LINK_CANDIDATE, type UserDoc } from '../../models/user';
import { DIRECTORY_ROLES } from '../../policies/users';
import { presentUser } from '../../presenters/user';
import { notFound } from '@portal/service-kit';

const userId = (id: string): string => {
  if (!isValidObjectId(id)) throw notFound('Пользователь не найден');
  return id;
};

/** Widths (characters) of USERS_EXPORT_HEADER's columns in the XLSX. */
const USER_COLUMN_WIDTHS = [32, 32, 16, 17];

interface DirectoryQuery {
  search?: string;
  role?: Role;
  audience?: 'learners';
  department?: string;
  position?: string;
}

/** The directory's filter: a role, a department, a position, and a search in the name, the email, the department or the role. */
function directoryFilter({ search, role, audience, department, position }: DirectoryQuery): Record<string, unknown> {
  const filter: Record<string, unknown> = { ...NOT_LINK_CANDIDATE };
  if (role) filter.role = role;
  else if (audience === 'learners') filter.role = op({ $in: [...STUDY_ROLES] });
  if (department) filter.department = department;
  if (position) filter.position = position;
  if (search) {
    const pattern = new RegExp(escapeRegExp(search), 'i');
    // A role is found by its code (CURATOR) or by the Russian label people see (Куратор).
    const roles = ROLES.filter((r) => pattern.test(r) || pattern.test(ROLE_LABELS[r]));
    filter.$or = [
      { fullName: pattern },
      { email: pattern },
      { department: pattern },
      ...(roles.length ? [{ role: op({ $in: roles }) }] : []),
    ];
  }
  return filter;
}

export function usersRouter(service: ServiceContext, users: Model<UserDoc>, announce: (id: string) => Promise<void>): Router {
  const router = new Router({ prefix: '/api/users' });
  const { audit, authenticate } = service;

  router.get('/', authenticate, requireRole(...DIRECTORY_ROLES), async (ctx) => {
    const { page, limit, ...query } = parse(userListQuerySchema, ctx.query);
    const filter = directoryFilter(query);
    // _id breaks ties between accounts made in the same millisecond (a seed), so pages never overlap.
    const { rows, ...counted } = await readPage(users, filter, { page, limit }, { createdAt: -1, _id: -1 });
    const body: Page<User> = { data: rows.map(presentUser), ...counted, page, limit };
    // 152-FZ: who read whose personal data. One record per page read, never one per row.
    const others = rows.filter((u) => String(u._id) !== ctx.state.user.id).length;
    if (others)
      audit.publish({
        action: 'read',
        entity: 'profile',
        entityId: null,
        details: `Просмотр справочника пользователей: страница ${page}, записей ${others}`,
        actor: ctx.state.user,
      });
    ctx.body = body;
  });

  /**
   * The departments people are in, by name (the assignment's «Подразделение» is chosen from them).
   * Read with one distinct: a company has hundreds of departments at most, so the page is cut here.
   */
  router.get('/departments', authenticate, requireRole(...DIRECTORY_ROLES), async (ctx) => {
    const { page, limit, search } = parse(departmentListQuerySchema, ctx.query);
    const names = ((await users.distinct('department', NOT_LINK_CANDIDATE)) as unknown[])
      .filter((name): name is string => typeof name === 'string' && name.trim() !== '')
      .filter((name) => !search || name.toLocaleLowerCase('ru').includes(search.toLocaleLowerCase('ru')))
      .sort((a, b) => a.localeCompare(b, 'ru'));
    const body: Page<Department> = {
      data: names.slice((page - 1) * limit, page * limit).map((name) => ({ name })),
      total: names.length,
      page,
      limit,
    };
    ctx.body = body;
  });

  /** users.csv or .xlsx: the directory as its search and role filter select it, newest first, through one cursor. */
  router.get('/export', authenticate, requireRole(...DIRECTORY_ROLES), async (ctx) => {
    const { format, tz, ...query } = parse(userExportQuerySchema, ctx.query);
    const filter = directoryFilter(query);
    const cursor = await exportRows(users, filter, { createdAt: -1, _id: -1 }, { fullName: 1, email: 1, role: 1, createdAt: 1 });
    sendExport(ctx, format, {
      file: 'users',
      sheet: 'Пользователи',
      columns: exportColumns(USERS_EXPORT_HEADER, USER_COLUMN_WIDTHS),
      timeZone: tz,
      rows: rowsOf(cursor, (u) => [u.fullName, u.email, ROLE_LABELS[u.role], u.createdAt]),
    });
    audit.publish({
      action: 'read',
      entity: 'user',
      entityId: null,
      details: `Выгрузка справочника пользователей в ${exportFileName('users', format)}`,
      actor: ctx.state.user,
    });
  });

  router.get('/:id', authenticate, requireRole(...DIRECTORY_ROLES), async (ctx) => {
    const user = await users.findById(userId(ctx.params.id)).lean<UserDoc>();
    if (!user) throw notFound('Пользователь не найден');
    if (String(user._id) !== ctx.state.user.id)
      audit.publish({
        action: 'read',
        entity: 'profile',
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
    const placeNote = (before.department ?? '') !== (after.department ?? '') ? `, подразделение «${after.department ?? ''}»` : '';
    audit.publish({
      action: 'update',
      entity: 'user',
      entityId: id,
      details: `Изменён пользователь ${after.email}${roleNote}${placeNote}`,
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
