import Router from '@koa/router';
import type { Context } from 'koa';
import type { Model } from 'mongoose';
import {
  MSG,
  ROLE_LABELS,
  formatMessage,
  loginSchema,
  registerSchema,
  type AuthResponse,
  type ProfileResponse,
} from '@portal/contracts';
import { parse, tooManyRequests, unauthorized, type ServiceContext, type TokenSigner } from '@portal/service-kit';
import type { AuthConfig } from '../../config';
import { presetsEnabled } from '../../config';
import { latestApplicationOf } from '../../commands/applications';
import { registerUser } from '../../commands/users';
import type { ApplicationDoc } from '../../models/application';
import type { LoginLimiter } from '../../limiter';
import type { UserDoc } from '../../models/user';
import { verifyPassword } from '../../passwords';
import { presentApplication } from '../../presenters/application';
import { presentUser } from '../../presenters/user';
import type { PresetAccount } from '../../presets';

export interface AuthRouteDeps {
  ctx: ServiceContext<AuthConfig>;
  users: Model<UserDoc>;
  applications: Model<ApplicationDoc>;
  signer: TokenSigner;
  limiter: LoginLimiter;
  presets: PresetAccount[];
}

/** Failures per address are allowed more room than per email: an office shares one address. */
const ADDRESS_FACTOR = 4;

/**
 * The address the gateway saw: the last X-Forwarded-For entry is the one it appended. Entries to its
 * left are whatever the client wrote, so trusting the first (Koa's ctx.ip behind a proxy) would let a
 * guesser reset the per-address limit with every request.
 */
export const clientAddress = (ctx: Context): string => ctx.request.ips.at(-1) ?? ctx.ip;

export function authRouter({ ctx: service, users, applications, signer, limiter, presets }: AuthRouteDeps): Router {
  const router = new Router({ prefix: '/api/auth' });
  const { audit, authenticate, config } = service;

  router.post('/register', async (ctx) => {
    const input = parse(registerSchema, ctx.request.body);
    const { user, application } = await registerUser({ users, applications }, input, config.ADMIN_REGISTRATION_PASSWORD);
    const presented = presentUser(user);
    audit.publish({
      action: 'create',
      entity: 'user',
      entityId: presented.id,
      details: `Регистрация с ролью ${presented.role}`,
      actor: presented,
    });
    if (application) {
      audit.publish({
        action: 'create',
        entity: 'application',
        entityId: String(application._id),
        details: `Заявка на роль ${application.role} от ${presented.email}`,
        actor: presented,
      });
    }
    const body: AuthResponse = {
      user: presented,
      token: await signer.sign({ sub: presented.id, role: presented.role }),
      message: application ? formatMessage(MSG.applicationFiled, { role: ROLE_LABELS[application.role] }) : MSG.registerOk,
      application: application ? presentApplication(application, user) : null,
    };
    ctx.status = 201;
    ctx.body = body;
  });

  router.post('/login', async (ctx) => {
    const { email, password } = parse(loginSchema, ctx.request.body);
    const emailKey = `email:${email}`;
    const keys = [
      { key: emailKey, limit: config.LOGIN_MAX_FAILURES },
      { key: `ip:${clientAddress(ctx)}`, limit: config.LOGIN_MAX_FAILURES * ADDRESS_FACTOR },
    ];
    const wait = await limiter.claim(keys);
    if (wait > 0) throw tooManyRequests(formatMessage(MSG.tooManyAttempts, { seconds: wait }), wait);

    let user: UserDoc | null = null;
    let outcome: 'ok' | 'failed' | 'aborted' = 'aborted';
    try {
      user = await users.findOne({ email }).lean<UserDoc>();
      outcome = (await verifyPassword(user?.passwordHash, password)) && user ? 'ok' : 'failed';
    } finally {
      await limiter.finish(keys, outcome, emailKey);
    }
    if (outcome !== 'ok' || !user) throw unauthorized(MSG.badCredentials);
    const presented = presentUser(user);
    audit.publish({ action: 'login', entity: 'user', entityId: presented.id, details: 'Вход в систему', actor: presented });
    const body: AuthResponse = {
      user: presented,
      token: await signer.sign({ sub: presented.id, role: presented.role }),
      message: MSG.loginOk,
    };
    ctx.body = body;
  });

  router.get('/profile', authenticate, async (ctx) => {
    const [user, application] = await Promise.all([
      users.findById(ctx.state.user.id).lean<UserDoc>(),
      latestApplicationOf(applications, ctx.state.user.id),
    ]);
    if (!user) throw unauthorized(MSG.badToken);
    const body: ProfileResponse = {
      user: presentUser(user),
      application: application ? presentApplication(application, user) : null,
    };
    ctx.body = body;
  });

  router.get('/verify', authenticate, async (ctx) => {
    ctx.body = { valid: true, user: ctx.state.user };
  });

  router.post('/logout', authenticate, async (ctx) => {
    audit.publish({
      action: 'logout',
      entity: 'user',
      entityId: ctx.state.user.id,
      details: 'Выход из системы',
      actor: ctx.state.user,
    });
    ctx.status = 204;
  });

  /** The preset picker of /auth reads the accounts from here, so turning presets off hides it. */
  router.get('/presets', async (ctx) => {
    ctx.body = {
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
    };
  });

  return router;
}
