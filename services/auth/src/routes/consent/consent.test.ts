import { CONSENT_DOCUMENT, CONSENT_MSG, type AuthResponse, type ConsentState } from '@portal/contracts';
import { api, publishedAuditEvents } from '@portal/devstack/testing';
import { consentModel } from '../../models/consent';
import { subjectRequestModel } from '../../models/subjectRequest';
import { userModel } from '../../models/user';
import { startAuth, uniqueEmail, userWithRole } from '../../testing';

let auth: Awaited<ReturnType<typeof startAuth>>;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

const state = async (token: string) => (await api<ConsentState>(auth.url, 'GET', '/api/consent', { token })).body;
const accept = (token: string, version: string = CONSENT_DOCUMENT.version) =>
  api<ConsentState & { message: string }>(auth.url, 'POST', '/api/consent', {
    token,
    body: { version },
    headers: { 'user-agent': 'ProbeBrowser/1.0', 'x-forwarded-for': '192.0.2.77' },
  });
const withdraw = (token: string) => api<ConsentState & { message: string }>(auth.url, 'POST', '/api/consent/withdraw', { token });

describe('the consent to the processing of personal data', () => {
  it('publishes its text to anyone, and keeps a person’s own consent behind sign-in', async () => {
    const document = await api(auth.url, 'GET', '/api/consent/document');
    expect(document.status).toBe(200);
    expect(document.body).toEqual(JSON.parse(JSON.stringify(CONSENT_DOCUMENT)));
    expect((await api(auth.url, 'GET', '/api/consent')).status).toBe(401);
    expect((await api(auth.url, 'POST', '/api/consent', { body: { version: CONSENT_DOCUMENT.version } })).status).toBe(401);
  });

  it('asks an existing account at its first sign-in, and records who, which version, when and from where', async () => {
    const person = await userWithRole(auth, 'CLIENT', 'Согласная Сотрудница', { consent: false });
    expect(await state(person.token)).toMatchObject({ version: CONSENT_DOCUMENT.version, consent: null, required: true });

    const stale = await accept(person.token, '2020-01-01');
    expect([stale.status, stale.body.message]).toEqual([409, CONSENT_MSG.outdated]);
    const blank = await accept(person.token, ' ');
    expect([blank.status, blank.body.message]).toEqual([400, CONSENT_MSG.required]);
    expect(await consentModel(auth.ctx.store).countDocuments({ userId: person.user.id })).toBe(0);

    const given = await accept(person.token);
    expect(given.status).toBe(201);
    expect(given.body).toMatchObject({ required: false, consent: { version: CONSENT_DOCUMENT.version, withdrawnAt: null } });
    const again = await accept(person.token);
    expect([again.status, again.body.required]).toEqual([200, false]);
    const stored = await consentModel(auth.ctx.store).find({ userId: person.user.id }).lean();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ version: CONSENT_DOCUMENT.version, userAgent: 'ProbeBrowser/1.0' });
    expect(stored[0].address).toMatch(/\S/);
    const events = (await publishedAuditEvents(auth)).filter((e) => e.entity === 'consent' && e.entityId === person.user.id);
    expect(events.map((e) => e.action)).toEqual(['create']);
  });

  it('asks again after the text gets a new version', async () => {
    const person = await userWithRole(auth, 'CLIENT', 'Иван Петров', { consent: false });
    await consentModel(auth.ctx.store).create({
      userId: person.user.id,
      version: '2025-01-01',
      acceptedAt: new Date('2025-01-02'),
    });
    expect(await state(person.token)).toMatchObject({ required: true, consent: { version: '2025-01-01', withdrawnAt: null } });
    expect((await accept(person.token)).status).toBe(201);
    expect((await state(person.token)).required).toBe(false);
  });

  it('is withdrawn from the profile: kept as withdrawn, asked again, and one anonymisation request filed for an ADMIN', async () => {
    const person = await userWithRole(auth, 'CANDIDATE', 'Отзывающий Кандидат', { consent: false });
    expect((await withdraw(person.token)).status).toBe(409);
    await accept(person.token);
    const withdrawn = await withdraw(person.token);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({
      message: CONSENT_MSG.withdrawn,
      required: true,
      consent: { withdrawnAt: expect.any(String) },
    });
    expect((await withdraw(person.token)).body.message).toBe(CONSENT_MSG.notGiven);
    // Given again and withdrawn again: still one open request.
    await accept(person.token);
    await withdraw(person.token);
    const requests = await subjectRequestModel(auth.ctx.store).find({ userId: person.user.id }).lean();
    expect(requests).toEqual([expect.objectContaining({ kind: 'anonymise', reason: 'withdrawal', status: 'open' })]);
    const events = (await publishedAuditEvents(auth)).filter((e) => e.actor?.id === person.user.id && e.action !== 'login');
    expect(events.map((e) => `${e.action} ${e.entity}`).sort()).toEqual(
      ['create consent', 'create consent', 'create profile', 'delete consent', 'delete consent'].sort(),
    );
  });

  it('is given with registration’s own checkbox; a stale text refuses the registration before anything is created', async () => {
    const email = uniqueEmail('consent');
    const body = { email, password: 'Kursy-Portal-42', fullName: 'Новая Сотрудница', role: 'CLIENT' };
    const stale = await api(auth.url, 'POST', '/api/auth/register', { body: { ...body, consentVersion: '2020-01-01' } });
    expect([stale.status, (stale.body as { message: string }).message]).toEqual([409, CONSENT_MSG.outdated]);
    expect(await userModel(auth.ctx.store).exists({ email })).toBeNull();
    const registered = await api<AuthResponse>(auth.url, 'POST', '/api/auth/register', {
      body: { ...body, consentVersion: CONSENT_DOCUMENT.version },
    });
    expect(registered.status).toBe(201);
    expect(await state(registered.body.token)).toMatchObject({ required: false, consent: { version: CONSENT_DOCUMENT.version } });
  });
});
