import Router from '@koa/router';
import type { Model } from 'mongoose';
import { isValidObjectId } from 'mongoose';
import {
  MSG,
  RESET_PASSWORD_PATH,
  formatMessage,
  passwordChangeSchema,
  passwordResetSchema,
  type PasswordResetLink,
} from '@portal/contracts';
import { badRequest, notFound, parse, portalLink, requireRole, tooManyRequests, type ServiceContext } from '@portal/service-kit';
import type { AuthConfig } from '../../config';
import { consumeResetLink, endSessionsOf, issueResetLink, resetLinkOwner } from '../../commands/sessions';
import type { LoginLimiter } from '../../limiter';
import type { UserDoc } from '../../models/user';
import { hashPassword, verifyPassword } from '../../passwords';
import { assertPasswordAllowed } from '../../passwordPolicy';
import { toPrincipal } from '../../presenters/user';

export interface PasswordRouteDeps {
  ctx: ServiceContext<AuthConfig>;
  users: Model<UserDoc>;
  limiter: LoginLimiter;
  /** Stamps a change of a user, so every service looks their sessions up again on the next request. */
  announce: (id: string) => Promise<void>;
}

/**
 * Sessions and passwords: «Выйти на всех устройствах», changing one's password, and the
 * administrator's one-time reset link with the public route that uses it.
 */
export function passwordRouter({ ctx: service, users, limiter, announce }: PasswordRouteDeps): Router {
  const router = new Router();
  const { audit, authenticate, config, mailer, store } = service;

  router.post('/api/auth/logout-all', authenticate, async (ctx) => {
    const { user } = ctx.state;
    await endSessionsOf(store, user.id);
    await announce(user.id);
    audit.publish({ action: 'logout', entity: 'user', entityId: user.id, details: 'Выход на всех устройствах', actor: user });
    ctx.status = 204;
  });

  router.post('/api/auth/password', authenticate, async (ctx) => {
    const { currentPassword, newPassword } = parse(passwordChangeSchema, ctx.request.body);
    const { user } = ctx.state;
    // A stolen token must not become a way to guess the password: the login limit applies here too.
    const keys = [{ key: `password:${user.id}`, limit: config.LOGIN_MAX_FAILURES }];
    const wait = await limiter.claim(keys);
    if (wait > 0) throw tooManyRequests(formatMessage(MSG.tooManyAttempts, { seconds: wait }), wait);
    let outcome: 'ok' | 'failed' | 'aborted' = 'aborted';
    let stored: UserDoc | null = null;
    try {
      stored = await users.findById(user.id).lean<UserDoc>();
      outcome = stored && (await verifyPassword(stored.passwordHash, currentPassword)) ? 'ok' : 'failed';
    } finally {
      await limiter.finish(keys, outcome);
    }
    if (outcome !== 'ok' || !stored) throw badRequest(MSG.currentPasswordWrong, 'currentPassword');
    assertPasswordAllowed(newPassword, stored.email, 'newPassword');
    await users.updateOne({ _id: stored._id }, { $set: { passwordHash: await hashPassword(newPassword) } });
    // The other devices signed in with the old password; this one proved it knows it.
    await endSessionsOf(store, user.id, ctx.state.sessionId);
    await announce(user.id);
    audit.publish({
      action: 'update',
      entity: 'user',
      entityId: user.id,
      details: 'Смена пароля, остальные сеансы завершены',
      actor: user,
    });
    ctx.body = { message: MSG.passwordChanged };
  });

  router.post('/api/users/:id/password-reset', authenticate, requireRole('ADMIN'), async (ctx) => {
    const target = isValidObjectId(ctx.params.id) ? await users.findById(ctx.params.id).lean<UserDoc>() : null;
    if (!target) throw notFound('Пользователь не найден');
    const { token, expiresAt } = await issueResetLink(store, target._id, ctx.state.user.id);
    audit.publish({
      action: 'update',
      entity: 'user',
      entityId: String(target._id),
      details: `Выдана ссылка для смены пароля пользователю ${target.email}`,
      actor: ctx.state.user,
    });
    const body: PasswordResetLink = {
      path: `${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`,
      expiresAt: expiresAt.toISOString(),
    };
    // The admin still hands the link over when there is no mail, or it does not arrive.
    if (mailer.enabled) void mailer.send(resetLinkMail(target, portalLink(config, body.path), expiresAt));
    ctx.status = 201;
    ctx.body = body;
  });

  router.post('/api/auth/password-reset', async (ctx) => {
    const { token, password } = parse(passwordResetSchema, ctx.request.body);
    const owner = await resetLinkOwner(store, token);
    const user = owner ? await users.findById(owner).lean<UserDoc>() : null;
    if (!user) throw badRequest(MSG.resetLinkInvalid, 'token');
    // Checked before the link is used up: a refused password leaves the link working.
    assertPasswordAllowed(password, user.email);
    if (!(await consumeResetLink(store, token))) throw badRequest(MSG.resetLinkInvalid, 'token');
    await users.updateOne({ _id: user._id }, { $set: { passwordHash: await hashPassword(password) } });
    const id = String(user._id);
    await endSessionsOf(store, id);
    await announce(id);
    audit.publish({
      action: 'update',
      entity: 'user',
      entityId: id,
      details: 'Пароль установлен по ссылке администратора, все сеансы завершены',
      actor: toPrincipal(user),
    });
    ctx.body = { message: MSG.passwordReset };
  });

  return router;
}

const expiryFormat = new Intl.DateTimeFormat('ru-RU', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'Europe/Moscow',
});

/** The mail that carries an administrator's reset link to the person. */
const resetLinkMail = (user: Pick<UserDoc, 'email' | 'fullName'>, link: string, expiresAt: Date) => ({
  to: user.email,
  subject: 'Ссылка для смены пароля на портале обучения',
  text: [
    `Здравствуйте, ${user.fullName}!`,
    '',
    'Администратор портала обучения выдал вам ссылку для смены пароля:',
    link,
    '',
    `Ссылка действует один раз, до ${expiryFormat.format(expiresAt)} (МСК).`,
    'После смены пароля все ваши сеансы завершатся. Если вы не просили сменить пароль, сообщите администратору.',
  ].join('\n'),
});
