import type { RoleApplication } from '@portal/contracts';
import type { ApplicationDoc } from '../models/application';
import type { UserDoc } from '../models/user';

type Applicant = Pick<UserDoc, '_id' | 'email' | 'fullName'>;

export const presentApplication = (application: ApplicationDoc, user: Applicant | null | undefined): RoleApplication => ({
  id: String(application._id),
  role: application.role,
  status: application.status,
  createdAt: new Date(application.createdAt).toISOString(),
  decidedAt: application.decidedAt ? new Date(application.decidedAt).toISOString() : null,
  // A person deleted after applying: the application still shows whose it was.
  user: user
    ? { id: String(user._id), email: user.email, fullName: user.fullName }
    : { id: application.userId, email: '', fullName: 'Пользователь удалён' },
});
