import { MSG, type AuthResponse, type PasswordResetLink } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { startSmtpCatcher, type SmtpCatcher } from '@portal/devstack/smtp';
import { waitFor } from '@portal/devstack/util';
import { startAuth, userWithRole } from '../../testing';

const PUBLIC_URL = 'https://portal.example.test';

let smtp: SmtpCatcher;
let auth: Awaited<ReturnType<typeof startAuth>>;
let admin: AuthResponse;
beforeAll(async () => {
  smtp = await startSmtpCatcher();
  auth = await startAuth({ SMTP_URL: smtp.url, PUBLIC_URL });
  admin = await userWithRole(auth, 'ADMIN');
});
afterAll(async () => {
  await auth.close();
  await smtp.close();
});

const issueLink = (id: string) =>
  api<PasswordResetLink>(auth.url, 'POST', `/api/users/${id}/password-reset`, { token: admin.token });

describe('the reset link by mail', () => {
  it('mails the link an administrator creates to the person, who sets a password with it', async () => {
    const person = await userWithRole(auth, 'CLIENT', 'Анна Смирнова');
    const { status, body } = await issueLink(person.user.id);
    expect(status).toBe(201);
    expect(body.path).toMatch(/^\/auth\/reset\?token=/);

    const [mail, ...more] = await smtp.mailsTo(person.user.email);
    expect(more).toHaveLength(0);
    expect(mail.from).toBe('Учебный портал <noreply@portal.local>');
    expect(mail.subject).toBe('Ссылка для смены пароля на портале обучения');
    expect(mail.text).toContain('Здравствуйте, Анна Смирнова!');
    expect(mail.text).toContain(`${PUBLIC_URL}${body.path}`);
    // HTML beside the plain text, its link the same one.
    expect(mail.html).toContain('Здравствуйте, Анна Смирнова!');
    expect(mail.html).toContain(`href="${`${PUBLIC_URL}${body.path}`.replace(/&/g, '&amp;')}"`);

    const token = new URL(`${PUBLIC_URL}${body.path}`).searchParams.get('token');
    const reset = await api(auth.url, 'POST', '/api/auth/password-reset', { body: { token, password: 'Novyi-Parol-2026' } });
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe(MSG.passwordReset);
  });

  it('still answers with the link when the mail server is down, and logs that the mail was not sent', async () => {
    const person = await userWithRole(auth, 'CLIENT');
    await smtp.close();
    const warn = jest.spyOn(auth.ctx.logger, 'warn');
    const { status, body } = await issueLink(person.user.id);
    expect(status).toBe(201);
    expect(body.path).toMatch(/^\/auth\/reset\?token=/);
    await waitFor(async () => warn.mock.calls.length > 0, 'the failed send logged', 5_000).catch(() => undefined);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ to: person.user.email, attempt: 1, err: expect.stringMatching(/ECONNREFUSED/) }),
      'mail not sent: will retry',
    );
    expect(smtp.mails.filter((mail) => mail.to.includes(person.user.email))).toHaveLength(0);
  });
});
