import type { Connection } from 'mongoose';
import { isValidObjectId } from 'mongoose';
import type { PrincipalLookup } from '@portal/service-kit';
import { sessionIsLive } from './commands/sessions';
import { userModel, type UserDoc } from './models/user';
import { toPrincipal } from './presenters/user';

/** The person behind a live session, read from the auth service's own database; null otherwise. */
export const localLookup =
  (store: Connection): PrincipalLookup =>
  async (id, sessionId) => {
    if (!isValidObjectId(id)) return null;
    const [user, live] = await Promise.all([userModel(store).findById(id).lean<UserDoc>(), sessionIsLive(store, id, sessionId)]);
    return user && live ? toPrincipal(user) : null;
  };
