import { MSG, type AuthResponse } from '@portal/contracts';
import { api, publishedAuditEvents } from '@portal/devstack/testing';
import { startSmtpCatcher, type SmtpCatcher } from '@portal/devstack/smtp';
import { waitFor } from '@portal/devstack/util';
import { passwordResetModel } from '../../models/session';
import { startAuth, uniqueEmail, userWithRole } from '../../testing';

const PUBLIC_URL = 'https://portal.example.test';

let smtp: SmtpCatcher;
let auth: Awaited<ReturnType<typeof startAuth>>;
beforeAll(async () => {
  smtp = await startSmtpCatcher();
  auth = await startAuth({ SMTP_URL: smtp.url, PUBLIC_URL, LOGIN_MAX_FAILURES: '3', LOGIN_WINDOW_SECONDS: '60' });
});
afterAll(async () => {
  await auth.close();
  await smtp.close();
});

const ask = (email: unknown, forwarded = '192.0.2.80') =>
  api<{ message: string; statusCode?: number }>(auth.url, 'POST', '/api/auth/forgot-password', {
    body: { email },
    headers: { 'x-forwarded-for': forwarded },
  });
const tokenIn = (text: string) => new URL(/https:\/\/\S+/.exec(text)![0]).searchParams.get('token');

describe('«Забыли пароль?»', () => {
  it('mails the person a one-time link that sets a new password, and answers an unknown email in the same words', async () => {
    const person: AuthResponse = await userWithRole(auth, 'CLIENT', 'Ольга Забывчивая');
    const unknown = uniqueEmail('nobody');
    const forUnknown = await ask(unknown);
    const forPerson = await ask(person.user.email.toUpperCase());
    expect([forPerson.status, forPerson.body]).toEqual([202, { message: MSG.resetRequested }]);
    expect([forUnknown.status, forUnknown.body]).toEqual([forPerson.status, forPerson.body]);

    const [mail, ...more] = await smtp.mailsTo(person.user.email);
    expect(more).toHaveLength(0);
    expect(mail.subject).toBe('Ссылка для смены пароля на портале обучения');
    expect(mail.text).toContain('Здравствуйте, Ольга Забывчивая!');
    expect(mail.text).toContain('Вы запросили смену пароля');
    expect(mail.text).toContain(`${PUBLIC_URL}/auth/reset?token=`);
    expect(mail.html).toContain(`>Задать новый пароль</a>`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/auth/reset?token=`);
    expect(smtp.mails.filter((m) => m.to.includes(unknown))).toHaveLength(0);

    const reset = await api(auth.url, 'POST', '/api/auth/password-reset', {
      body: { token: tokenIn(mail.text), password: 'Svezhii-Parol-5' },
    });
    expect([reset.status, reset.body.message]).toEqual([200, MSG.passwordReset]);
    // The old sessions end; the new password signs in; the link is used up.
    expect((await api(auth.url, 'GET', '/api/auth/profile', { token: person.token })).status).toBe(401);
    const login = await api(auth.url, 'POST', '/api/auth/login', {
      body: { email: person.user.email, password: 'Svezhii-Parol-5' },
    });
    expect(login.status).toBe(200);
    const again = await api(auth.url, 'POST', '/api/auth/password-reset', {
      body: { token: tokenIn(mail.text), password: 'Eshche-Odin-Parol-6' },
    });
    expect([again.status, again.body.message]).toEqual([400, MSG.resetLinkInvalid]);

    const requested = async () => (await publishedAuditEvents(auth)).filter((e) => e.details.includes('«Забыли пароль?»'));
    // Audited after the answer, as the link is made.
    await waitFor(async () => (await requested()).length > 0, 'the request audited', 5_000);
    const audited = await requested();
    expect(audited.map((e) => e.entityId)).toEqual([person.user.id]);
    expect(audited[0].details).toContain('адрес 192.0.2.80');
  });

  it('only the newest of the links asked for works', async () => {
    const person = await userWithRole(auth, 'CANDIDATE', 'Пётр Дважды');
    expect((await ask(person.user.email, '192.0.2.81')).status).toBe(202);
    await smtp.mailsTo(person.user.email, 1);
    expect((await ask(person.user.email, '192.0.2.81')).status).toBe(202);
    const [first, second] = await smtp.mailsTo(person.user.email, 2);
    const older = await api(auth.url, 'POST', '/api/auth/password-reset', {
      body: { token: tokenIn(first.text), password: 'Svezhii-Parol-5' },
    });
    expect([older.status, older.body.message]).toEqual([400, MSG.resetLinkInvalid]);
    const newer = await api(auth.url, 'POST', '/api/auth/password-reset', {
      body: { token: tokenIn(second.text), password: 'Svezhii-Parol-5' },
    });
    expect(newer.status).toBe(200);
  });

  it('is limited as the login is, whether the account exists or not: 429 in Russian with Retry-After', async () => {
    const person = await userWithRole(auth, 'CLIENT');
    for (const email of [person.user.email, uniqueEmail('ghost')]) {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await ask(email, `203.0.113.${i}, 192.0.2.90`)).status);
      const limited = await ask(email, '192.0.2.90');
      expect([...statuses, limited.status]).toEqual([202, 202, 202, 429]);
      expect(limited.body.message).toMatch(/^Слишком много запросов ссылки для смены пароля\. Попробуйте снова через \d+ с$/);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The person got three mails, no more.
    expect(await smtp.mailsTo(person.user.email, 3)).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.filter((m) => m.to.includes(person.user.email))).toHaveLength(3);
  });

  it('answers a malformed email or an operator object with a Russian 400 and mails nobody', async () => {
    const before = await passwordResetModel(auth.ctx.store).countDocuments({});
    const malformed = await ask('не-почта', '192.0.2.99');
    expect([malformed.status, malformed.body.message]).toEqual([400, MSG.emailInvalid]);
    const missing = await ask(undefined, '192.0.2.99');
    expect([missing.status, missing.body.message]).toEqual([400, MSG.fillAllFields]);
    const injected = await ask({ $gt: '' }, '192.0.2.99');
    expect(injected.status).toBe(400);
    expect(await passwordResetModel(auth.ctx.store).countDocuments({})).toBe(before);
  });
});
