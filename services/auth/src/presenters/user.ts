import type { User } from '@portal/contracts';
import type { Principal } from '@portal/service-kit';
import type { UserDoc } from '../models/user';

type StoredUser = Pick<UserDoc, '_id' | 'email' | 'fullName' | 'role' | 'createdAt' | 'version'>;

/** The only shape in which a user leaves the service: never the hash, never internal flags. */
export const presentUser = (user: StoredUser): User => ({
  id: String(user._id),
  email: user.email,
  fullName: user.fullName,
  firstName: user.fullName.trim().split(/\s+/)[0] ?? '',
  role: user.role,
  version: user.version ?? 0,
  createdAt: new Date(user.createdAt).toISOString(),
});

export const toPrincipal = (user: StoredUser): Principal => ({
  id: String(user._id),
  email: user.email,
  fullName: user.fullName,
  role: user.role,
});
