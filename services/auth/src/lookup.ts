import type { Connection } from 'mongoose';
import { isValidObjectId } from 'mongoose';
import type { PrincipalLookup } from '@portal/service-kit';
import { consentState } from './commands/consent';
import { sessionIsLive } from './commands/sessions';
import { consentModel } from './models/consent';
import { userModel, type UserDoc } from './models/user';
import { toPrincipal } from './presenters/user';

/** The person behind a live session (not suspended by the directory sync), with whether their consent is in force, read from the auth service's own database; null otherwise. */
export const localLookup =
  (store: Connection): PrincipalLookup =>
  async (id, sessionId) => {
    if (!isValidObjectId(id)) return null;
    const [user, live, consent] = await Promise.all([
      userModel(store).findById(id).lean<UserDoc>(),
      sessionIsLive(store, id, sessionId),
      consentState(consentModel(store), id),
    ]);
    // A person the directory sync suspended has no session that works, whatever opened it.
    return user && live && !user.directory?.suspendedAt ? { ...toPrincipal(user), consentGiven: !consent.required } : null;
  };
