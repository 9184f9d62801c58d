import type { Model } from 'mongoose';
import {
  APPLY_FOR_ROLES,
  MSG,
  SELF_REGISTER_ROLES,
  joinName,
  splitFullName,
  type NameParts,
  type RegisterInput,
  type Role,
  type UserUpdateInput,
} from '@portal/contracts';
import {
  assertVersion,
  badRequest,
  conflict,
  forbidden,
  notFound,
  op,
  writeVersioned,
  type Principal,
} from '@portal/service-kit';
import type { ApplicationDoc } from '../models/application';
import type { UserDoc } from '../models/user';
import { hashPassword } from '../passwords';
import { authorizeUserEdit } from '../policies/users';
import { fileApplication } from './applications';

const isDuplicate = (err: unknown) => (err as { code?: number })?.code === 11000;

/**
 * A new account. Asking for a role of APPLY_FOR_ROLES (CURATOR) makes a CANDIDATE with a pending
 * application for that role: staff rights come only from an administrator's approval. ADMIN is the
 * bootstrap of an empty portal only: refused once any ADMIN exists (making one is then an ADMIN's
 * edit), and otherwise `admitAdmin` checks the administrator password (the caller limits guesses).
 */
export async function registerUser(
  { users, applications }: { users: Model<UserDoc>; applications: Model<ApplicationDoc> },
  input: Required<Pick<RegisterInput, 'email' | 'password' | 'fullName'>> & { role: Role },
  admitAdmin: () => Promise<void>,
): Promise<{ user: UserDoc; application: ApplicationDoc | null }> {
  if (input.role === 'ADMIN') {
    if (await users.exists({ role: 'ADMIN' })) throw forbidden(MSG.adminExists);
    await admitAdmin();
  } else if (!SELF_REGISTER_ROLES.includes(input.role)) {
    throw forbidden(MSG.roleNotAllowed);
  }
  if (await users.exists({ email: input.email })) throw conflict(MSG.emailTaken, 'email');
  const applyFor = APPLY_FOR_ROLES.includes(input.role) ? input.role : null;
  let user: UserDoc;
  try {
    const created = await users.create({
      email: input.email,
      fullName: input.fullName,
      role: applyFor ? 'CANDIDATE' : input.role,
      passwordHash: await hashPassword(input.password),
    });
    user = created.toObject();
  } catch (err) {
    if (isDuplicate(err)) throw conflict(MSG.emailTaken, 'email');
    throw err;
  }
  return { user, application: applyFor ? await fileApplication(applications, user, applyFor) : null };
}

export async function updateUser(
  users: Model<UserDoc>,
  actor: Principal,
  id: string,
  input: UserUpdateInput,
  expected?: number[],
): Promise<{ before: UserDoc; after: UserDoc }> {
  const before = await users.findById(id).lean<UserDoc>();
  if (!before) throw notFound('Пользователь не найден');
  const changes = { ...namesOf(before, input), email: input.email, role: input.role };
  if (input.department !== undefined) Object.assign(changes, { department: input.department });
  if (input.position !== undefined) Object.assign(changes, { position: input.position });
  authorizeUserEdit(actor, before, changes);
  assertVersion(before, expected);
  if (before.role === 'ADMIN' && changes.role !== 'ADMIN' && (await users.countDocuments({ role: 'ADMIN' })) <= 1) {
    throw badRequest(MSG.lastAdmin, 'role');
  }
  if (changes.email !== before.email && (await users.exists({ email: changes.email, _id: op({ $ne: before._id }) }))) {
    throw conflict(MSG.emailTaken, 'email');
  }
  try {
    if (!(await writeVersioned(users, before, expected, { $set: changes }))) throw notFound('Пользователь не найден');
  } catch (err) {
    if (isDuplicate(err)) throw conflict(MSG.emailTaken, 'email');
    throw err;
  }
  const after = await users.findById(id).lean<UserDoc>();
  if (!after) throw notFound('Пользователь не найден');
  return { before, after };
}

/**
 * The name an edit leaves: parts sent make the full name; a changed full name gives its parts; an
 * unchanged one keeps the stored parts (an administrator's corrections survive a rename elsewhere).
 */
function namesOf(before: UserDoc, input: UserUpdateInput): NameParts & { fullName: string } {
  if (input.lastName !== undefined || input.firstName !== undefined || input.middleName !== undefined) {
    const parts = { lastName: input.lastName ?? '', firstName: input.firstName ?? '', middleName: input.middleName ?? '' };
    return { ...parts, fullName: joinName(parts) };
  }
  const fullName = input.fullName ?? before.fullName;
  if (fullName === before.fullName && before.firstName !== undefined) {
    return { fullName, lastName: before.lastName ?? '', firstName: before.firstName, middleName: before.middleName ?? '' };
  }
  return { fullName, ...splitFullName(fullName) };
}

export async function deleteUser(users: Model<UserDoc>, actor: Principal, id: string): Promise<UserDoc> {
  const target = await users.findById(id).lean<UserDoc>();
  if (!target) throw notFound('Пользователь не найден');
  if (String(target._id) === actor.id) throw badRequest('Нельзя удалить собственную учётную запись');
  if (target.role === 'ADMIN' && (await users.countDocuments({ role: 'ADMIN' })) <= 1) throw badRequest(MSG.lastAdmin);
  await users.deleteOne({ _id: target._id });
  return target;
}
