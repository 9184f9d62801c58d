import type { Context } from 'koa';
import type { Model } from 'mongoose';
import { MSG, SSO_ERRORS, type AuthResponse, type SsoErrorCode } from '@portal/contracts';
import {
  badRequest,
  implement,
  notFound,
  type DeclaredHandler,
  type ServiceContext,
  type TokenSigner,
} from '@portal/service-kit';
import { oidcEnabled, type AuthConfig } from '../../config';
import { openSession } from '../../commands/sessions';
import type { UserDoc } from '../../models/user';
import { presentUser } from '../../presenters/user';
import { personFromClaims, signInPerson } from '../../oidc/accounts';
import { SignInSteps } from '../../oidc/attempts';
import { RelyingParty, SignInRefused, reasonOf } from '../../oidc/relyingParty';
import * as declared from './declarations';

export interface OidcRouteDeps {
  ctx: ServiceContext<AuthConfig>;
  users: Model<UserDoc>;
  signer: TokenSigner;
  /** Seconds a session (and its token) lives: TOKEN_TTL. */
  sessionTtl: number;
  announce: (id: string) => Promise<void>;
}

/** Where /auth may send the person after signing in: a path of the portal, never another site. */
const portalPath = (path: string | undefined): string =>
  path && /^\/(?![/\\])[^\s\\]*$/.test(path) && !path.startsWith('/api/') ? path : '';

/** The corporate sign-in's routes, each beside its declaration (`declarations.ts`). */
export function oidcRoutes({ ctx: service, users, signer, sessionTtl, announce }: OidcRouteDeps): DeclaredHandler[] {
  const { config, logger, audit, store } = service;
  const enabled = oidcEnabled(config);
  const relyingParty = new RelyingParty(config);
  const steps = new SignInSteps(service.redis, config.DB_PREFIX);

  /** Back to /auth with the code of what went wrong; the log says why (never a secret, never a token). */
  const refuse = (ctx: Context, code: SsoErrorCode, reason: string) => {
    logger.warn({ ssoError: code, reason }, 'corporate sign-in refused');
    ctx.redirect(`/auth?${new URLSearchParams({ ssoError: code })}`);
  };

  return [
    implement(declared.getCorporateSignIn, () => ({
      enabled,
      displayName: config.OIDC_DISPLAY_NAME,
      localLogin: config.LOCAL_LOGIN,
    })),

    implement(declared.startCorporateSignIn, async (ctx, { query }) => {
      if (!enabled) throw notFound(SSO_ERRORS.disabled);
      try {
        const { state, attempt, url } = await relyingParty.start(portalPath(query.returnTo));
        await steps.keepAttempt(state, attempt);
        ctx.redirect(url);
      } catch (err) {
        if (err instanceof SignInRefused) return refuse(ctx, err.code, err.message);
        throw err;
      }
    }),

    implement(declared.finishCorporateSignIn, async (ctx) => {
      if (!enabled) throw notFound(SSO_ERRORS.disabled);
      const params = new URLSearchParams(ctx.querystring);
      const state = params.get('state');
      const attempt = state ? await steps.takeAttempt(state) : null;
      if (!state || !attempt) return refuse(ctx, 'state', state ? 'unknown, expired or used state' : 'no state');
      try {
        const { claims, idToken } = await relyingParty.finish(ctx.querystring, state, attempt);
        const person = personFromClaims(claims, config, String(claims.iss ?? config.OIDC_ISSUER));
        const { user, outcome, changed } = await signInPerson(users, person, config.OIDC_GROUP_ROLES);
        // Suspended by the directory sync (left its scope, or disabled there): no session, at once.
        if (user.directory?.suspendedAt) throw new SignInRefused('suspended', 'the person is suspended by the directory sync');
        if (changed && outcome !== 'created') await announce(String(user._id));
        if (outcome === 'created') {
          const presented = presentUser(user);
          audit.publish({
            code: 'user.createdOnSignIn',
            data: { role: presented.role },
            entityId: presented.id,
            actor: presented,
          });
        }
        const code = await steps.issueCode({ userId: String(user._id), outcome, idToken });
        const back = new URLSearchParams({ sso: code });
        if (attempt.returnTo) back.set('next', attempt.returnTo);
        ctx.redirect(`/auth?${back}`);
      } catch (err) {
        if (err instanceof SignInRefused) return refuse(ctx, err.code, err.message);
        logger.error({ reason: reasonOf(err) }, 'corporate sign-in failed');
        return refuse(ctx, 'rejected', 'unexpected failure');
      }
    }),

    implement(declared.exchangeCorporateSignIn, async (_ctx, { body: { code } }) => {
      const handover = await steps.takeCode(code);
      const user = handover && (await users.findById(handover.userId).lean<UserDoc>());
      if (!handover || !user) throw badRequest(SSO_ERRORS.code, 'code');
      if (user.directory?.suspendedAt) throw badRequest(SSO_ERRORS.suspended, 'code');
      const presented = presentUser(user);
      const sid = await openSession(store, user._id, sessionTtl);
      if (handover.idToken) await steps.keepIdToken(sid, handover.idToken, sessionTtl);
      // The same event as a password sign-in, saying it came through the provider.
      audit.publish({
        code: 'user.signedIn',
        data: { corporate: handover.outcome },
        entityId: presented.id,
        actor: presented,
      });
      const body: AuthResponse = {
        user: presented,
        token: await signer.sign({ sub: presented.id, role: presented.role, sid }),
        message: MSG.loginOk,
      };
      return body;
    }),

    implement(declared.getCorporateSignOut, async (ctx) => {
      const idToken = enabled ? await steps.idTokenOf(ctx.state.sessionId) : null;
      // Only a session opened through the provider goes there: a password account's sign-out stays in the portal.
      return { url: idToken ? await relyingParty.endSessionUrl(idToken) : null };
    }),
  ];
}
