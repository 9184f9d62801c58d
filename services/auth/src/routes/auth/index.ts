import Router from '@koa/router';
import type { Model } from 'mongoose';
import { MSG, formatMessage, loginSchema, registerSchema, type AuthResponse } from '@portal/contracts';
import { parse, tooManyRequests, unauthorized, type ServiceContext, type TokenSigner } from '@portal/service-kit';
import type { AuthConfig } from '../../config';
import { presetsEnabled } from '../../config';
import { registerUser } from '../../commands/users';
import type { LoginLimiter } from '../../limiter';
import type { UserDoc } from '../../models/user';
import { verifyPassword } from '../../passwords';
import { presentUser } from '../../presenters/user';
import type { PresetAccount } from '../../presets';

export interface AuthRouteDeps {
  ctx: ServiceContext<AuthConfig>;
  users: Model<UserDoc>;
  signer: TokenSigner;
  limiter: LoginLimiter;
  presets: PresetAccount[];
}

/** Failures per address are allowed more room than per email: an office shares one address. */
const ADDRESS_FACTOR = 4;

export function authRouter({ ctx: service, users, signer, limiter, presets }: AuthRouteDeps): Router {
  const router = new Router({ prefix: '/api/auth' });
  const { audit, authenticate, config } = service;

  router.post('/register', async (ctx) => {
    const input = parse(registerSchema, ctx.request.body);
    const user = await registerUser(users, input, config.ADMIN_REGISTRATION_PASSWORD);
    const presented = presentUser(user);
    audit.publish({
      action: 'create',
      entity: 'user',
      entityId: presented.id,
      details: `Регистрация с ролью ${presented.role}`,
      actor: presented,
    });
    const body: AuthResponse = {
      user: presented,
      token: await signer.sign({ sub: presented.id, role: presented.role }),
      message: MSG.registerOk,
    };
    ctx.status = 201;
    ctx.body = body;
  });

  router.post('/login', async (ctx) => {
    const { email, password } = parse(loginSchema, ctx.request.body);
    const keys = [`email:${email}`, `ip:${ctx.ip}`];
    const wait = Math.max(
      await limiter.blockedFor(keys[0]),
      await limiter.blockedFor(keys[1], config.LOGIN_MAX_FAILURES * ADDRESS_FACTOR),
    );
    if (wait > 0) throw tooManyRequests(formatMessage(MSG.tooManyAttempts, { seconds: wait }), wait);

    const user = await users.findOne({ email }).lean<UserDoc>();
    if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
      await Promise.all(keys.map((key) => limiter.fail(key)));
      throw unauthorized(MSG.badCredentials);
    }
    await limiter.reset(keys[0]);
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
    const user = await users.findById(ctx.state.user.id).lean<UserDoc>();
    if (!user) throw unauthorized(MSG.badToken);
    ctx.body = { user: presentUser(user) };
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
