import { splitFullName, type User } from '@portal/contracts';
import type { Principal } from '@portal/service-kit';
import type { UserDoc } from '../models/user';

type StoredUser = Pick<UserDoc, '_id' | 'email' | 'fullName' | 'role' | 'createdAt' | 'version'> &
  Partial<Pick<UserDoc, 'lastName' | 'firstName' | 'middleName' | 'department' | 'position' | 'linkScope'>>;

/** The stored parts; an account the start-up migration has not reached yet reads them from its name. */
const partsOf = (user: StoredUser) =>
  user.firstName === undefined && user.lastName === undefined
    ? splitFullName(user.fullName)
    : { lastName: user.lastName ?? '', firstName: user.firstName ?? '', middleName: user.middleName ?? '' };

/** The only shape in which a user leaves the service: never the hash, never internal flags. */
export const presentUser = (user: StoredUser): User => ({
  id: String(user._id),
  email: user.email,
  fullName: user.fullName,
  ...partsOf(user),
  department: user.department ?? '',
  position: user.position ?? '',
  role: user.role,
  version: user.version ?? 0,
  createdAt: new Date(user.createdAt).toISOString(),
});

export const toPrincipal = (user: StoredUser): Principal => ({
  id: String(user._id),
  email: user.email,
  fullName: user.fullName,
  role: user.role,
  department: user.department ?? '',
  ...(user.linkScope
    ? {
        linkScope: {
          linkId: user.linkScope.linkId,
          courseId: user.linkScope.courseId,
          lessonId: user.linkScope.lessonId,
          quizId: user.linkScope.quizId,
        },
      }
    : {}),
});
