import type { Model } from 'mongoose';
import { MSG, pageOffset, type ApplicationStatus, type Page, type Role, type RoleApplication } from '@portal/contracts';
import { claimWrite, conflict, notFound, op, type Principal } from '@portal/service-kit';
import { isValidObjectId } from 'mongoose';
import type { ApplicationDoc } from '../models/application';
import type { UserDoc } from '../models/user';
import { presentApplication } from '../presenters/application';

export interface ApplicationModels {
  applications: Model<ApplicationDoc>;
  users: Model<UserDoc>;
}

export async function fileApplication(
  applications: Model<ApplicationDoc>,
  user: Pick<UserDoc, '_id'>,
  role: Role,
): Promise<ApplicationDoc> {
  const created = await applications.create({ userId: String(user._id), role, status: 'pending' });
  return created.toObject();
}

/** The person's latest application, whatever its status (the dashboard says pending or declined). */
export const latestApplicationOf = (applications: Model<ApplicationDoc>, userId: string): Promise<ApplicationDoc | null> =>
  applications.findOne({ userId }).sort({ createdAt: -1, _id: -1 }).lean<ApplicationDoc>().exec();

/** One page of applications of one status, the longest waiting first, with who filed each: three reads. */
export async function listApplications(
  { applications, users }: ApplicationModels,
  query: { status: ApplicationStatus; page: number; limit: number },
): Promise<Page<RoleApplication>> {
  const filter = { status: query.status };
  const [rows, total] = await Promise.all([
    applications.find(filter).sort({ createdAt: 1, _id: 1 }).skip(pageOffset(query)).limit(query.limit).lean<ApplicationDoc[]>(),
    applications.countDocuments(filter),
  ]);
  const people = rows.length
    ? await users
        .find({ _id: op({ $in: rows.map((r) => r.userId).filter((id) => isValidObjectId(id)) }) })
        .select({ email: 1, fullName: 1 })
        .lean<Pick<UserDoc, '_id' | 'email' | 'fullName'>[]>()
    : [];
  const byId = new Map(people.map((p) => [String(p._id), p]));
  return {
    data: rows.map((r) => presentApplication(r, byId.get(r.userId))),
    total,
    page: query.page,
    limit: query.limit,
  };
}

export type Decision = 'approve' | 'decline';

/**
 * Approves or declines a pending application. The status moves only from pending (a conditional
 * write), so two administrators deciding at once give one decision and one 409. Approval gives the
 * person the role; the caller announces the change so every service sees it on the next request.
 */
export async function decideApplication(
  { applications, users }: ApplicationModels,
  actor: Principal,
  id: string,
  decision: Decision,
): Promise<{ application: ApplicationDoc; user: UserDoc }> {
  const current = isValidObjectId(id) ? await applications.findById(id).lean<ApplicationDoc>() : null;
  if (!current) throw notFound(MSG.applicationNotFound);
  const user = await users.findById(current.userId).lean<UserDoc>();
  if (!user) throw notFound('Пользователь не найден');
  if (current.status !== 'pending') throw conflict(MSG.applicationDecided);
  // FerretDB runs a conditional update as a read and a write, so two deciders could both match:
  // the claim lets exactly one of them move the application out of pending.
  const release = await claimWrite(applications.db, `applications:${String(current._id)}:decide`, () =>
    conflict(MSG.applicationDecided),
  );
  try {
    const decided = await applications.updateOne(
      { _id: current._id, status: 'pending' },
      { $set: { status: decision === 'approve' ? 'approved' : 'declined', decidedBy: actor.id, decidedAt: new Date() } },
    );
    if (decided.modifiedCount === 0) throw conflict(MSG.applicationDecided);
  } finally {
    await release();
  }
  if (decision === 'approve') await users.updateOne({ _id: user._id }, { $set: { role: current.role } });
  const [application, after] = await Promise.all([
    applications.findById(current._id).lean<ApplicationDoc>(),
    users.findById(user._id).lean<UserDoc>(),
  ]);
  if (!application || !after) throw notFound(MSG.applicationNotFound);
  return { application, user: after };
}
