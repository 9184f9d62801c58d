import type { Model } from 'mongoose';
import {
  ROLES,
  ROLE_LABELS,
  STUDY_ROLES,
  USERS_EXPORT_HEADER,
  exportFileName,
  type Department,
  type Page,
  type Role,
  type User,
} from '@portal/contracts';
import {
  exportColumns,
  exportRows,
  escapeRegExp,
  implement,
  notFound,
  op,
  readPage,
  rowsOf,
  sendExport,
  type DeclaredHandler,
} from '@portal/service-kit';
import { isValidObjectId } from 'mongoose';
import { changeEndsSessions, endSessionsOf } from '../../commands/sessions';
import { deleteUser, updateUser } from '../../commands/users';
import { NOT_LINK_CANDIDATE, type UserDoc } from '../../models/user';
import { presentUser } from '../../presenters/user';
import * as declared from './declarations';

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

/** The fields of a person's card an edit changed, before and after (an empty department or position is ''). */
function userChangesOf(before: UserDoc, after: UserDoc) {
  const changed = (field: 'fullName' | 'email' | 'department' | 'position') => {
    const [from, to] = [before[field] ?? '', after[field] ?? ''];
    return from !== to ? { [field]: { from, to } } : {};
  };
  return {
    ...changed('fullName'),
    ...changed('email'),
    ...(before.role !== after.role ? { role: { from: before.role, to: after.role } } : {}),
    ...changed('department'),
    ...changed('position'),
  };
}

/**
 * The directory's public routes, each beside its declaration (`declarations.ts`): the kit has
 * already authenticated, checked the policy and parsed the input when the handler runs.
 */
export function userRoutes(users: Model<UserDoc>, announce: (id: string) => Promise<void>): DeclaredHandler[] {
  return [
    /** users.csv or .xlsx: the directory as its search and role filter select it, newest first, through one cursor. */
    implement(declared.exportUsers, async (ctx, { query: { format, tz, ...query }, record }) => {
      const filter = directoryFilter(query);
      const cursor = await exportRows(
        users,
        filter,
        { createdAt: -1, _id: -1 },
        { fullName: 1, email: 1, role: 1, createdAt: 1 },
      );
      sendExport(ctx, format, {
        file: 'users',
        sheet: 'Пользователи',
        columns: exportColumns(USERS_EXPORT_HEADER, USER_COLUMN_WIDTHS),
        timeZone: tz,
        rows: rowsOf(cursor, (u) => [u.fullName, u.email, ROLE_LABELS[u.role], u.createdAt]),
      });
      record({ code: 'users.exported', data: { file: exportFileName('users', format) } });
    }),

    /**
     * The departments people are in, by name (the assignment's «Подразделение» is chosen from them).
     * Read with one distinct: a company has hundreds of departments at most, so the page is cut here.
     */
    implement(declared.listDepartments, async (_ctx, { query: { page, limit, search } }) => {
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
      return body;
    }),

    implement(declared.listUsers, async (ctx, { query: { page, limit, ...query }, record }) => {
      const filter = directoryFilter(query);
      // _id breaks ties between accounts made in the same millisecond (a seed), so pages never overlap.
      const { rows, ...counted } = await readPage(users, filter, { page, limit }, { createdAt: -1, _id: -1 });
      const body: Page<User> = { data: rows.map(presentUser), ...counted, page, limit };
      // 152-FZ: who read whose personal data. One record per page read, never one per row.
      const others = rows.filter((u) => String(u._id) !== ctx.state.user.id).length;
      if (others) record({ code: 'users.viewed', data: { page, records: others } });
      return body;
    }),

    implement(declared.getUser, async (ctx, { params, record }) => {
      const user = await users.findById(userId(params.id)).lean<UserDoc>();
      if (!user) throw notFound('Пользователь не найден');
      if (String(user._id) !== ctx.state.user.id)
        record({ code: 'user.viewed', data: { email: user.email }, entityId: String(user._id) });
      return presentUser(user);
    }),

    implement(declared.updateUser, async (ctx, { params, body: changes, expected, record }) => {
      const id = userId(params.id);
      const { before, after } = await updateUser(users, ctx.state.user, id, changes, expected);
      // A person who changes their own email stays signed in here, as after a password change; their
      // other sessions end. Anyone else's change ends all of that person's sessions.
      const self = id === ctx.state.user.id;
      if (changeEndsSessions(before, after)) await endSessionsOf(users.db, id, self ? ctx.state.sessionId : undefined);
      await announce(id);
      record({ code: 'user.updated', data: { email: after.email, changes: userChangesOf(before, after) }, entityId: id });
      return presentUser(after);
    }),

    implement(declared.deleteUser, async (ctx, { params, record }) => {
      const removed = await deleteUser(users, ctx.state.user, userId(params.id));
      await announce(String(removed._id));
      record({ code: 'user.deleted', data: { email: removed.email }, entityId: String(removed._id) });
    }),
  ];
}
