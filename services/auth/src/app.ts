import type Router from '@koa/router';
import type { Connection } from 'mongoose';
import { announceUserChange, createTokenSigner, type PrincipalLookup, type ServiceContext } from '@portal/service-kit';
import { isValidObjectId } from 'mongoose';
import type { AuthConfig } from './config';
import { LoginLimiter } from './limiter';
import { applicationModel } from './models/application';
import { userModel, type UserDoc } from './models/user';
import { toPrincipal } from './presenters/user';
import { presetAccounts } from './presets';
import { applicationsRouter } from './routes/applications';
import { authRouter } from './routes/auth';
import { internalRouter } from './routes/internal';
import { usersRouter } from './routes/users';

/** The auth service reads principals from its own database rather than over HTTP. */
export const localLookup =
  (store: Connection): PrincipalLookup =>
  async (id) => {
    if (!isValidObjectId(id)) return null;
    const user = await userModel(store).findById(id).lean<UserDoc>();
    return user ? toPrincipal(user) : null;
  };

export function authRouters(ctx: ServiceContext<AuthConfig>): Router[] {
  const users = userModel(ctx.store);
  const applications = applicationModel(ctx.store);
  const signer = createTokenSigner(ctx.config.JWT_SECRET, ctx.config.TOKEN_TTL);
  const limiter = new LoginLimiter(
    ctx.redis,
    ctx.config.LOGIN_MAX_FAILURES,
    ctx.config.LOGIN_WINDOW_SECONDS,
    ctx.config.DB_PREFIX,
  );
  // Every service caches principals and checks each hit against the user's change stamp, so
  // stamping before the response keeps "the new rights on the next request" true for a client
  // that acts on our answer at once, in every service.
  const announce = async (id: string): Promise<void> => {
    ctx.principals.evict(id);
    await announceUserChange(ctx.redis, id);
  };
  return [
    authRouter({ ctx, users, applications, signer, limiter, presets: presetAccounts(ctx.config) }),
    usersRouter(ctx, users, announce),
    applicationsRouter(ctx, { users, applications }, announce),
    internalRouter(ctx, users),
  ];
}
