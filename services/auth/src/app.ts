import type Router from '@koa/router';
import { announceUserChange, createTokenSigner, declaredRouter, subjectRouter, type ServiceContext } from '@portal/service-kit';
import type { AuthConfig } from './config';
import { ttlSeconds } from './commands/sessions';
import { authSubjects } from './commands/subjects';
import { LoginLimiter } from './limiter';
import { applicationModel } from './models/application';
import { consentModel } from './models/consent';
import { subjectRequestModel } from './models/subjectRequest';
import { staffImportModel } from './models/staffImport';
import { userModel } from './models/user';
import { presetAccounts } from './presets';
import { applicationRoutes } from './routes/applications';
import { authRoutes } from './routes/auth';
import { candidatesRouter } from './routes/candidates';
import { consentRoutes } from './routes/consent';
import { subjectRequestRoutes, subjectRequestsRouter } from './routes/subjectRequests';
import { passwordRoutes } from './routes/auth/password';
import { directoryRoutes } from './routes/directory';
import { internalRouter } from './routes/internal';
import { oidcRoutes } from './routes/oidc';
import { staffImportRoutes } from './routes/staffImport';
import { userRoutes } from './routes/users';

export { localLookup } from './lookup';

export function authRouters(ctx: ServiceContext<AuthConfig>): Router[] {
  const users = userModel(ctx.store);
  const applications = applicationModel(ctx.store);
  const consents = consentModel(ctx.store);
  const requests = subjectRequestModel(ctx.store);
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
  const subjects = authSubjects({ store: ctx.store, users, consents, applications, requests });
  return [
    declaredRouter(ctx, [
      ...authRoutes({
        ctx,
        users,
        applications,
        consents,
        signer,
        limiter,
        presets: presetAccounts(ctx.config),
        sessionTtl: ttlSeconds(ctx.config.TOKEN_TTL),
        announce,
      }),
      ...passwordRoutes({ ctx, users, limiter, announce }),
      ...oidcRoutes({ ctx, users, signer, sessionTtl: ttlSeconds(ctx.config.TOKEN_TTL), announce }),
      ...userRoutes(users, announce),
      ...applicationRoutes({ users, applications }, ctx.audit, announce),
      ...consentRoutes({ consents, requests }, ctx.audit, announce),
      ...staffImportRoutes(ctx, { users, imports: staffImportModel(ctx.store), store: ctx.store, announce }),
      ...subjectRequestRoutes({ requests, users }),
      ...directoryRoutes(ctx),
    ]),
    subjectRequestsRouter(ctx, requests),
    internalRouter(ctx, users),
    candidatesRouter(ctx, { users, consents, signer, announce }),
    subjectRouter(ctx.config.INTERNAL_TOKEN, {
      collect: subjects.collect,
      // Every service drops what it cached about the person, as after any change of a user.
      async anonymise(userId, identity) {
        const changed = await subjects.anonymise(userId, identity);
        await announce(userId);
        return changed;
      },
    }),
  ];
}
