import type { Model } from 'mongoose';
import { isValidObjectId } from 'mongoose';
import { MSG, RESET_PASSWORD_PATH, formatMessage, passwordResetRequestSchema, type PasswordResetLink } from '@portal/contracts';
import {
  badRequest,
  composeMail,
  implement,
  notFound,
  portalLink,
  tooManyRequests,
  type DeclaredHandler,
  type Middleware,
  type ServiceContext,
} from '@portal/service-kit';
import type { AuthConfig } from '../../config';
import { consumeResetLink, endSessionsOf, issueResetLink, resetLinkOwner } from '../../commands/sessions';
import type { LoginLimiter } from '../../limiter';
import type { UserDoc } from '../../models/user';
import { assertPasswordLinkRequests, assertPasswordReset } from '../../oidc/localLogin';
import { hashPassword, verifyPassword } from '../../passwords';
import { assertPasswordAllowed } from '../../passwordPolicy';
import { toPrincipal } from '../../presenters/user';
import { EMAIL_FACTOR, clientAddress } from '.';
import * as declared from './declarations';

export interface PasswordRouteDeps {
  ctx: ServiceContext<AuthConfig>;
  users: Model<UserDoc>;
  limiter: LoginLimiter;
  /** Stamps a change of a user, so every service looks their sessions up again on the next request. */
  announce: (id: string) => Promise<void>;
}

/**
 * Sessions and passwords: «Выйти на всех устройствах», changing one's password, the
 * administrator's one-time reset link, «Забыли пароль?», and the public route that uses a link.
 */
export function passwordRoutes({ ctx: service, users, limiter, announce }: PasswordRouteDeps): DeclaredHandler[] {
  const { audit, config, mailer, store } = service;

  const logoutEverywhere = implement(declared.logoutEverywhere, async (ctx, { record }) => {
    const { user } = ctx.state;
    await endSessionsOf(store, user.id);
    await announce(user.id);
    record({ code: 'user.signedOutEverywhere', data: {}, entityId: user.id });
  });

  const changePassword = implement(declared.changePassword, async (ctx, { body: { currentPassword, newPassword }, record }) => {
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
    record({ code: 'password.changed', data: {}, entityId: user.id });
    return { message: MSG.passwordChanged };
  });

  const issuePasswordLink = implement(declared.issuePasswordLink, async (ctx, { params, record }) => {
    const target = isValidObjectId(params.id) ? await users.findById(params.id).lean<UserDoc>() : null;
    if (!target) throw notFound('Пользователь не найден');
    const { token, expiresAt } = await issueResetLink(store, target._id, ctx.state.user.id);
    record({ code: 'passwordLink.issued', data: { email: target.email }, entityId: String(target._id) });
    const body: PasswordResetLink = {
      path: `${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`,
      expiresAt: expiresAt.toISOString(),
    };
    // The admin still hands the link over when there is no mail, or it does not arrive.
    if (mailer.enabled) void mailer.send(resetLinkMail(target, portalLink(config, body.path), expiresAt, 'admin'));
    return body;
  });

  /** The link of «Забыли пароль?», made and mailed after the answer (see the route). */
  const mailRequestedLink = async (email: string, address: string) => {
    // A candidate «по ссылке» has a placeholder email; nobody reads an anonymised one.
    const user = await users.findOne({ email, linkScope: null }).lean<UserDoc>();
    if (!user) return;
    if (!mailer.enabled) {
      service.logger.warn({ userId: String(user._id) }, 'a password reset link was asked for, but mail is off (SMTP_URL)');
      return;
    }
    const { token, expiresAt } = await issueResetLink(store, user._id, String(user._id));
    const path = `${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
    void mailer.send(resetLinkMail(user, portalLink(config, path), expiresAt, 'self'));
    audit.publish({
      code: 'passwordLink.mailed',
      data: { email: user.email, address },
      entityId: String(user._id),
      actor: null,
    });
  };

  /**
   * The limit of «Забыли пароль?» (its declaration's `passwordLinkRequests`): every request counts as
   * a failed login does, per (address, email), per email from all addresses, and per address (a
   * mailbox flood). A body the route refuses (400) asks for nothing and counts for nothing.
   */
  const passwordLinkRequests: Middleware = async (ctx, next) => {
    const input = passwordResetRequestSchema.safeParse(ctx.request.body);
    if (!input.success) return next();
    const { email } = input.data;
    const address = clientAddress(ctx);
    const keys = [
      { key: `forgot:address-email:${address} ${email}`, limit: config.LOGIN_MAX_FAILURES },
      { key: `forgot:email:${email}`, limit: config.LOGIN_MAX_FAILURES * EMAIL_FACTOR },
      { key: `forgot:address:${address}`, limit: config.LOGIN_MAX_FAILURES * EMAIL_FACTOR },
    ];
    const wait = await limiter.claim(keys);
    if (wait > 0) throw tooManyRequests(formatMessage(MSG.tooManyResetRequests, { seconds: wait }), wait);
    await limiter.finish(keys, 'failed');
    await next();
  };

  /**
   * «Забыли пароль?»: a one-time link by mail, the administrator's link and its mail. The answer is
   * the same whether an account has the email or not, and comes before anything is looked up, so
   * neither its words nor its time tell.
   */
  const requestPasswordLink = implement(
    declared.requestPasswordLink,
    (ctx, { body: { email } }) => {
      assertPasswordLinkRequests(config);
      void mailRequestedLink(email, clientAddress(ctx)).catch((err: Error) =>
        service.logger.warn({ err: err.message }, 'password reset link not sent'),
      );
      return { message: MSG.resetRequested };
    },
    { limit: passwordLinkRequests },
  );

  const resetPassword = implement(declared.resetPassword, async (_ctx, { body: { token, password } }) => {
    const owner = await resetLinkOwner(store, token);
    const user = owner ? await users.findById(owner).lean<UserDoc>() : null;
    if (!user) throw badRequest(MSG.resetLinkInvalid, 'token');
    assertPasswordReset(config, user.role);
    // Checked before the link is used up: a refused password leaves the link working.
    assertPasswordAllowed(password, user.email);
    if (!(await consumeResetLink(store, token))) throw badRequest(MSG.resetLinkInvalid, 'token');
    await users.updateOne({ _id: user._id }, { $set: { passwordHash: await hashPassword(password) } });
    const id = String(user._id);
    await endSessionsOf(store, id);
    await announce(id);
    audit.publish({ code: 'password.reset', data: {}, entityId: id, actor: toPrincipal(user) });
    return { message: MSG.passwordReset };
  });

  return [logoutEverywhere, changePassword, issuePasswordLink, requestPasswordLink, resetPassword];
}

const expiryFormat = new Intl.DateTimeFormat('ru-RU', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'Europe/Moscow',
});

/** The mail that carries a reset link to the person, as plain text and HTML: an administrator's, or the one they asked for. */
const resetLinkMail = (user: Pick<UserDoc, 'email' | 'fullName'>, link: string, expiresAt: Date, by: 'admin' | 'self') => ({
  to: user.email,
  subject: 'Ссылка для смены пароля на портале обучения',
  ...composeMail({
    greetingName: user.fullName,
    paragraphs: [
      by === 'admin'
        ? 'Администратор портала обучения выдал вам ссылку для смены пароля.'
        : 'Вы запросили смену пароля на портале обучения («Забыли пароль?»). Задайте новый пароль по ссылке ниже.',
      `Ссылка действует один раз, до ${expiryFormat.format(expiresAt)} (МСК).`,
      by === 'admin'
        ? 'После смены пароля все ваши сеансы завершатся. Если вы не просили сменить пароль, сообщите администратору.'
        : 'После смены пароля все ваши сеансы завершатся. Если вы не запрашивали смену пароля, ничего не делайте: пароль останется прежним.',
    ],
    link: { label: 'Задать новый пароль', url: link },
  }),
});
