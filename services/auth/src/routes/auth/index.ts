import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { Model, Types } from 'mongoose';
import {
  CONSENT_DOCUMENT,
  CONSENT_MSG,
  DIRECTORY_MSG,
  MSG,
  ROLE_LABELS,
  formatMessage,
  type AuthResponse,
  type ProfileResponse,
} from '@portal/contracts';
import {
  conflict,
  forbidden,
  implement,
  loginFailures,
  tooManyRequests,
  unauthorized,
  type DeclaredHandler,
  type ServiceContext,
  type TokenSigner,
} from '@portal/service-kit';
import type { AuthConfig } from '../../config';
import { presetsEnabled } from '../../config';
import { latestApplicationOf } from '../../commands/applications';
import { acceptConsent } from '../../commands/consent';
import { endSession, openSession } from '../../commands/sessions';
import { registerUser } from '../../commands/users';
import type { ApplicationDoc } from '../../models/application';
import type { ConsentDoc } from '../../models/consent';
import type { LoginLimiter } from '../../limiter';
import type { UserDoc } from '../../models/user';
import { assertPasswordSignIn, assertRegistration } from '../../oidc/localLogin';
import { verifyPassword } from '../../passwords';
import { assertPasswordAllowed } from '../../passwordPolicy';
import { presentApplication } from '../../presenters/application';
import { presentUser } from '../../presenters/user';
import type { PresetAccount } from '../../presets';
import * as declared from './declarations';

export interface AuthRouteDeps {
  ctx: ServiceContext<AuthConfig>;
  users: Model<UserDoc>;
  applications: Model<ApplicationDoc>;
  consents: Model<ConsentDoc>;
  signer: TokenSigner;
  limiter: LoginLimiter;
  presets: PresetAccount[];
  /** Seconds a session (and its token) lives: TOKEN_TTL. */
  sessionTtl: number;
  /** Stamps a change of a user, so every service looks their sessions up again on the next request. */
  announce: (id: string) => Promise<void>;
}

/**
 * Failures for one email from all addresses together are allowed more room than from one address:
 * guessing one account from many addresses is still bounded, while the per-(address, email) count
 * is what a guesser meets first. There is no count per address alone: an office shares one address,
 * and guesses at made-up emails must not lock out a colleague who types the right password.
 */
export const EMAIL_FACTOR = 4;

/**
 * The address the gateway saw: the last X-Forwarded-For entry is the one it appended. Entries to its
 * left are whatever the client wrote, so trusting the first (Koa's ctx.ip behind a proxy) would let a
 * guesser reset the per-address limit with every request.
 */
export const clientAddress = (ctx: Context): string => ctx.request.ips.at(-1) ?? ctx.ip;

const digest = (text: string) => createHash('sha256').update(text).digest();
/** Compared in constant time: how long a wrong guess takes says nothing about the password. */
const samePassword = (given: string | undefined, expected: string) =>
  given !== undefined && timingSafeEqual(digest(given), digest(expected));

/** Signing up and in and one's own session, each route beside its declaration (`declarations.ts`). */
export function authRoutes({
  ctx: service,
  users,
  applications,
  consents,
  signer,
  limiter,
  presets,
  sessionTtl,
  announce,
}: AuthRouteDeps): DeclaredHandler[] {
  const { audit, config, store } = service;

  /** Every token names a new server-side session. */
  const issueToken = async (user: { id: string; role: UserDoc['role'] }, userId: Types.ObjectId) =>
    signer.sign({ sub: user.id, role: user.role, sid: await openSession(store, userId, sessionTtl) });

  /**
   * The administrator password of an empty portal's first ADMIN, limited as the login is: per
   * address the gateway decided and for all addresses together (it is one secret); every wrong
   * guess is audited, never with what was typed.
   */
  const admitAdmin = async (ctx: Context, input: { email: string; adminPassword?: string }) => {
    const address = clientAddress(ctx);
    const keys = [
      { key: `admin-register:${address}`, limit: config.LOGIN_MAX_FAILURES },
      { key: 'admin-register', limit: config.LOGIN_MAX_FAILURES * EMAIL_FACTOR },
    ];
    const wait = await limiter.claim(keys);
    if (wait > 0) throw tooManyRequests(formatMessage(MSG.tooManyAdminGuesses, { seconds: wait }), wait);
    const right = samePassword(input.adminPassword, config.ADMIN_REGISTRATION_PASSWORD);
    await limiter.finish(keys, right ? 'ok' : 'failed');
    if (right) return;
    audit.publish({
      code: 'adminRegistration.failed',
      data: { email: input.email, address },
      entityId: input.email,
      actor: null,
    });
    throw forbidden(MSG.adminPasswordRequired);
  };

  return [
    implement(declared.register, async (ctx, { body: input }) => {
      assertRegistration(config, input.role);
      assertPasswordAllowed(input.password, input.email);
      // A consent to a text changed since the page opened is refused before anything is created.
      if (input.consentVersion !== undefined && input.consentVersion !== CONSENT_DOCUMENT.version)
        throw conflict(CONSENT_MSG.outdated, 'consentVersion');
      const { user, application } = await registerUser({ users, applications }, input, () => admitAdmin(ctx, input));
      const presented = presentUser(user);
      audit.publish({ code: 'user.registered', data: { role: presented.role }, entityId: presented.id, actor: presented });
      if (input.consentVersion) {
        const origin = { address: clientAddress(ctx), userAgent: String(ctx.get('user-agent')).slice(0, 300) };
        await acceptConsent({ consents, audit }, presented, input.consentVersion, origin);
      }
      if (application) {
        audit.publish({
          code: 'application.filed',
          data: { role: application.role, email: presented.email },
          entityId: String(application._id),
          actor: presented,
        });
      }
      const body: AuthResponse = {
        user: presented,
        token: await issueToken(presented, user._id),
        message: application ? formatMessage(MSG.applicationFiled, { role: ROLE_LABELS[application.role] }) : MSG.registerOk,
        application: application ? presentApplication(application, user) : null,
      };
      return body;
    }),

    implement(declared.login, async (ctx, { body: { email, password } }) => {
      if (config.LOCAL_LOGIN === 'none') assertPasswordSignIn(config, 'ADMIN');
      const address = clientAddress(ctx);
      const keys = [
        { key: `address-email:${address} ${email}`, limit: config.LOGIN_MAX_FAILURES },
        { key: `email:${email}`, limit: config.LOGIN_MAX_FAILURES * EMAIL_FACTOR },
      ];
      const wait = await limiter.claim(keys);
      if (wait > 0) {
        loginFailures.inc({ reason: 'limited' });
        throw tooManyRequests(formatMessage(MSG.tooManyAttempts, { seconds: wait }), wait);
      }

      let user: UserDoc | null = null;
      let outcome: 'ok' | 'failed' | 'aborted' = 'aborted';
      try {
        user = await users.findOne({ email }).lean<UserDoc>();
        outcome = (await verifyPassword(user?.passwordHash, password)) && user ? 'ok' : 'failed';
      } finally {
        await limiter.finish(keys, outcome);
      }
      if (outcome === 'failed') {
        loginFailures.inc({ reason: user ? 'wrong_password' : 'no_account' });
        // Never the password; the email names the account even when none exists.
        audit.publish({
          code: 'signIn.failed',
          data: { email, address, reason: user ? 'wrongPassword' : 'noAccount' },
          entityId: user ? String(user._id) : email,
          actor: null,
        });
      }
      if (outcome !== 'ok' || !user) throw unauthorized(MSG.badCredentials);
      // Checked after the password: a refusal never tells whether an email is an ADMIN's.
      assertPasswordSignIn(config, user.role);
      // Suspended or deactivated by the directory sync: refused, after the password as well.
      if (user.directory?.suspendedAt) throw forbidden(DIRECTORY_MSG.suspendedLogin);
      const presented = presentUser(user);
      audit.publish({ code: 'user.signedIn', data: {}, entityId: presented.id, actor: presented });
      const body: AuthResponse = {
        user: presented,
        token: await issueToken(presented, user._id),
        message: MSG.loginOk,
      };
      return body;
    }),

    implement(declared.getProfile, async (ctx) => {
      const [user, application] = await Promise.all([
        users.findById(ctx.state.user.id).lean<UserDoc>(),
        latestApplicationOf(applications, ctx.state.user.id),
      ]);
      if (!user) throw unauthorized(MSG.badToken);
      const body: ProfileResponse = {
        user: presentUser(user),
        application: application ? presentApplication(application, user) : null,
      };
      return body;
    }),

    implement(declared.verifyToken, (ctx) => ({ valid: true, user: ctx.state.user })),

    implement(declared.logout, async (ctx, { record }) => {
      await endSession(store, ctx.state.sessionId);
      await announce(ctx.state.user.id);
      record({ code: 'user.signedOut', data: {}, entityId: ctx.state.user.id });
    }),

    implement(declared.listPresets, () => ({
      data: presetsEnabled(config)
        ? presets.map(({ email, password, fullName, role, description, guest }) => ({
            email,
            password,
            fullName,
            role,
            description,
            guest: !!guest,
          }))
        : [],
    })),
  ];
}
