import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { Types, type Connection, type Model } from 'mongoose';
import {
  DIRECTORY_MSG,
  ROLES,
  formatMessage,
  joinName,
  type DirectoryCounts,
  type DirectoryOutcome,
  type Role,
} from '@portal/contracts';
import { onlyDuplicateKeys, op, updateEach } from '@portal/service-kit';
import { sessionModel } from '../models/session';
import type { DirectoryLink, UserDoc } from '../models/user';
import { emptyCounts } from './models';
import type { DirectoryPerson } from './read';
import type { DirectorySettings } from './settings';

/** How many people one store query reads or one insert writes. */
const CHUNK = 1000;
const EMAIL = z.email();

type Existing = Pick<
  UserDoc,
  | '_id'
  | 'email'
  | 'fullName'
  | 'lastName'
  | 'firstName'
  | 'middleName'
  | 'department'
  | 'position'
  | 'role'
  | 'preset'
  | 'directory'
>;
const EXISTING_FIELDS = {
  email: 1,
  fullName: 1,
  lastName: 1,
  firstName: 1,
  middleName: 1,
  department: 1,
  position: 1,
  role: 1,
  preset: 1,
  directory: 1,
};

/** The account fields the directory decides. */
interface Wanted {
  email: string;
  lastName: string;
  firstName: string;
  middleName: string;
  fullName: string;
  department: string;
  position: string;
  role: Role;
}

/** One person's outcome, with what applying it writes. */
export interface Planned {
  n: number;
  outcome: DirectoryOutcome;
  directoryId: string;
  dn: string;
  user: Existing | null;
  wanted: Wanted | null;
  /** For `update` and `reactivate`: the account linked by email for the first time. */
  link: boolean;
  reason: string;
}

export interface Plan {
  planned: Planned[];
  counts: DirectoryCounts;
}

/** DNs compare case- and space-insensitively around their commas (AD writes CN=…,OU=…). */
const normDn = (dn: string) =>
  dn
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .join(',');

/**
 * A person's role from their groups: the highest of the roles their groups are mapped to, or the
 * default. ADMIN comes only from a group the configuration names for ADMIN.
 */
export function roleOf(groups: string[], settings: Pick<DirectorySettings, 'groupRoles' | 'defaultRole'>): Role {
  const mine = new Set(groups.map(normDn));
  const roles = settings.groupRoles.filter((g) => mine.has(normDn(g.group))).map((g) => g.role);
  return ROLES.find((r) => roles.includes(r)) ?? (settings.defaultRole === 'ADMIN' ? 'CLIENT' : settings.defaultRole);
}

const wantedOf = (p: DirectoryPerson, settings: DirectorySettings): Wanted => {
  const parts = { lastName: p.lastName, firstName: p.firstName, middleName: p.middleName };
  return {
    email: p.email,
    ...parts,
    fullName: joinName(parts),
    department: p.department,
    position: p.position,
    role: roleOf(p.groups, settings),
  };
};

const LABELS: Record<keyof Omit<Wanted, 'lastName' | 'firstName' | 'middleName'>, string> = {
  email: 'email',
  fullName: 'ФИО',
  department: 'подразделение',
  position: 'должность',
  role: 'роль',
};

/** What differs between the account and the directory, in words: «подразделение: Склад → ИТ». */
function differences(user: Existing, wanted: Wanted): string[] {
  const changes: string[] = [];
  const now: Record<string, string> = {
    email: user.email,
    fullName: joinName(user),
    department: user.department ?? '',
    position: user.position ?? '',
    role: user.role,
  };
  for (const key of Object.keys(LABELS) as Array<keyof typeof LABELS>)
    if (now[key] !== wanted[key]) changes.push(`${LABELS[key]}: ${now[key] || '—'} → ${wanted[key] || '—'}`);
  if (!changes.length && (user.fullName !== wanted.fullName || (user.lastName ?? '') !== wanted.lastName))
    changes.push('ФИО по частям');
  return changes;
}

async function byField(users: Model<UserDoc>, field: 'directory.id' | 'email', values: string[]): Promise<Map<string, Existing>> {
  const found = new Map<string, Existing>();
  if (!values.length) return found;
  const rows = await users.find({ [field]: op({ $in: values }) }, EXISTING_FIELDS).lean<Existing[]>();
  for (const u of rows) found.set(field === 'email' ? u.email : u.directory!.id, u);
  return found;
}

/**
 * Every person's outcome against the portal's accounts as they are now. Reads only: a page of the
 * directory's people at a time by their directory ids (and, for those not linked yet, by email),
 * then the linked accounts the directory no longer lists (their ids only, streamed).
 */
export async function planSync(
  users: Model<UserDoc>,
  people: DirectoryPerson[],
  settings: DirectorySettings,
  now: Date,
): Promise<Plan> {
  const planned: Planned[] = [];
  const seenIds = new Set<string>();
  const seenEmails = new Map<string, number>();
  const valid: Array<{ n: number; person: DirectoryPerson }> = [];
  const a = settings.attributes;

  people.forEach((person, n) => {
    const error = (reason: string) =>
      planned.push({ n, outcome: 'error', directoryId: person.id, dn: person.dn, user: null, wanted: null, link: false, reason });
    if (person.id) seenIds.add(person.id);
    if (!person.id) return error(formatMessage(DIRECTORY_MSG.noId, { attribute: a.id }));
    if (!person.email) return error(formatMessage(DIRECTORY_MSG.noEmail, { attribute: a.email }));
    if (!EMAIL.safeParse(person.email).success) return error(formatMessage(DIRECTORY_MSG.badEmail, { email: person.email }));
    if (!person.lastName && !person.firstName) return error(DIRECTORY_MSG.noName);
    if (seenEmails.has(person.email)) return error(formatMessage(DIRECTORY_MSG.duplicateEmail, { email: person.email }));
    seenEmails.set(person.email, n);
    valid.push({ n, person });
  });

  let admins: number | null = null;
  /** True when taking this ADMIN's role or access away leaves the portal another ADMIN. */
  const canLoseAdmin = async (user: Existing): Promise<boolean> => {
    if (user.role !== 'ADMIN') return true;
    admins ??= await users.countDocuments({ role: 'ADMIN', 'directory.suspendedAt': op({ $in: [null] }) });
    if (admins <= 1) return false;
    admins -= 1;
    return true;
  };
  const graceOver = (link: DirectoryLink) =>
    !!link.suspendedAt && !link.deactivatedAt && link.suspendedAt.getTime() + settings.graceMs <= now.getTime();

  for (let i = 0; i < valid.length; i += CHUNK) {
    const chunk = valid.slice(i, i + CHUNK);
    const linked = await byField(
      users,
      'directory.id',
      chunk.map((c) => c.person.id),
    );
    const byEmail = await byField(
      users,
      'email',
      chunk.filter((c) => !linked.has(c.person.id)).map((c) => c.person.email),
    );
    for (const { n, person } of chunk) {
      const base = { n, directoryId: person.id, dn: person.dn, link: false, reason: '' };
      const wanted = wantedOf(person, settings);
      let user = linked.get(person.id) ?? null;
      let link = false;
      if (!user) {
        const local = byEmail.get(person.email);
        if (local?.directory?.id) {
          planned.push({
            ...base,
            outcome: 'error',
            user: null,
            wanted,
            reason: formatMessage(DIRECTORY_MSG.emailTaken, { email: person.email }),
          });
          continue;
        }
        if (local?.preset) {
          planned.push({
            ...base,
            outcome: 'error',
            user: null,
            wanted,
            reason: formatMessage(DIRECTORY_MSG.emailLocal, { email: person.email }),
          });
          continue;
        }
        user = local ?? null;
        link = !!local;
      }
      if (!user) {
        // A disabled person the portal does not know is not made an account.
        if (!person.disabled) planned.push({ ...base, outcome: 'create', user: null, wanted });
        continue;
      }
      if (person.disabled) {
        // Only an account the directory made or linked is suspended by it.
        if (link) continue;
        const dir = user.directory!;
        if (!dir.suspendedAt) {
          if (await canLoseAdmin(user))
            planned.push({ ...base, outcome: 'suspend', user, wanted, reason: DIRECTORY_MSG.disabled });
          else planned.push({ ...base, outcome: 'error', user, wanted, reason: DIRECTORY_MSG.lastAdmin });
        } else if (graceOver(dir))
          planned.push({
            ...base,
            outcome: 'deactivate',
            user,
            wanted,
            reason: `${dir.reason || DIRECTORY_MSG.disabled}; ${formatMessage(DIRECTORY_MSG.graceOver, { days: String(settings.graceDays) })}`,
          });
        else planned.push({ ...base, outcome: 'same', user, wanted });
        continue;
      }
      if (user.role === 'ADMIN' && wanted.role !== 'ADMIN' && !(await canLoseAdmin(user))) {
        planned.push({ ...base, outcome: 'error', user, wanted, reason: DIRECTORY_MSG.lastAdmin });
        continue;
      }
      const changes = differences(user, wanted);
      if (user.directory?.suspendedAt) planned.push({ ...base, outcome: 'reactivate', user, wanted, reason: changes.join('; ') });
      else if (changes.length || link)
        planned.push({
          ...base,
          outcome: 'update',
          user,
          wanted,
          link,
          reason: [...(link ? ['связан с каталогом по email'] : []), ...changes].join('; '),
        });
      else planned.push({ ...base, outcome: 'same', user, wanted });
    }
  }

  // The linked accounts the directory no longer lists (left the base or the filter, or removed).
  let n = people.length;
  const cursor = users
    .find({ 'directory.id': op({ $exists: true }) }, EXISTING_FIELDS)
    .batchSize(CHUNK)
    .lean<Existing[]>()
    .cursor();
  for await (const user of cursor) {
    const dir = user.directory;
    if (!dir?.id || seenIds.has(dir.id)) continue;
    const base = { n: n++, directoryId: dir.id, dn: dir.dn, user, wanted: null, link: false };
    if (!dir.suspendedAt) {
      if (await canLoseAdmin(user)) planned.push({ ...base, outcome: 'suspend', reason: DIRECTORY_MSG.leftScope });
      else planned.push({ ...base, outcome: 'error', reason: DIRECTORY_MSG.lastAdmin });
    } else if (graceOver(dir))
      planned.push({
        ...base,
        outcome: 'deactivate',
        reason: `${dir.reason || DIRECTORY_MSG.leftScope}; ${formatMessage(DIRECTORY_MSG.graceOver, { days: String(settings.graceDays) })}`,
      });
    else planned.push({ ...base, outcome: 'same', reason: '' });
  }

  planned.sort((x, y) => x.n - y.n);
  const counts = emptyCounts();
  for (const p of planned) counts[p.outcome] += 1;
  return { planned, counts };
}

/** A password nobody knows and no hash function produces (staff import's unusablePassword). */
const unusablePassword = () => `!unset:${randomBytes(24).toString('base64url')}`;

const freshLink = (p: Planned): DirectoryLink => ({
  id: p.directoryId,
  dn: p.dn,
  suspendedAt: null,
  deactivatedAt: null,
  reason: '',
});

/**
 * Writes a plan: new accounts in unordered inserts, every other change in bulk writes, a thousand at a
 * time. Suspended, deactivated and re-roled people's sessions end; each changed person is announced,
 * so every service drops what it cached about them. Returns the plan's outcomes as they were written
 * (an email taken between the plan and the insert turns a `create` into an `error`).
 */
export async function applyPlan(
  store: Connection,
  users: Model<UserDoc>,
  plan: Plan,
  now: Date,
  announce: (id: string) => Promise<void>,
): Promise<Plan> {
  const creates = plan.planned.filter((p) => p.outcome === 'create');
  for (let i = 0; i < creates.length; i += CHUNK) {
    const chunk = creates.slice(i, i + CHUNK);
    const docs = chunk.map((p) => ({ ...p.wanted!, passwordHash: unusablePassword(), directory: freshLink(p) }));
    try {
      const made = await users.insertMany(docs, { ordered: false });
      made.forEach((doc, k) => (chunk[k].user = { ...docs[k], _id: doc._id, preset: false }));
    } catch (err) {
      const results = (err as { results?: unknown[] }).results;
      if (!results || !onlyDuplicateKeys(err)) throw err;
      results.forEach((result, k) => {
        if (result && typeof result === 'object' && '_id' in result)
          chunk[k].user = { ...docs[k], _id: result._id as Types.ObjectId, preset: false };
        else
          Object.assign(chunk[k], {
            outcome: 'error',
            reason: formatMessage(DIRECTORY_MSG.emailTaken, { email: chunk[k].wanted!.email }),
          });
      });
    }
  }

  const endSessions: Types.ObjectId[] = [];
  const announced: string[] = [];
  const ops: Array<{ updateOne: { filter: Record<string, unknown>; update: Record<string, unknown> } }> = [];
  for (const p of plan.planned) {
    if (!p.user || p.outcome === 'create' || p.outcome === 'same' || p.outcome === 'error') continue;
    const id = p.user._id;
    let set: Record<string, unknown>;
    if (p.outcome === 'suspend') set = { 'directory.suspendedAt': now, 'directory.reason': p.reason };
    else if (p.outcome === 'deactivate') set = { 'directory.deactivatedAt': now };
    else {
      const { lastName, firstName, middleName, fullName, email, department, position, role } = p.wanted!;
      set = { lastName, firstName, middleName, fullName, email, department, position, role };
      if (p.outcome === 'reactivate' || p.link) set.directory = freshLink(p);
      else set['directory.dn'] = p.dn;
      // What they signed in as is gone (as an edit of the email or role ends the sessions).
      if (email !== p.user.email || role !== p.user.role) endSessions.push(id);
    }
    if (p.outcome === 'suspend' || p.outcome === 'deactivate') endSessions.push(id);
    ops.push({ updateOne: { filter: { _id: id }, update: { $set: set, $inc: { version: 1 } } } });
    announced.push(String(id));
  }
  await updateEach(users, ops);
  for (let i = 0; i < endSessions.length; i += CHUNK)
    await sessionModel(store).deleteMany({ userId: op({ $in: endSessions.slice(i, i + CHUNK) }) });
  for (const id of announced) await announce(id);

  const counts = emptyCounts();
  for (const p of plan.planned) counts[p.outcome] += 1;
  return { planned: plan.planned, counts };
}
