import type { IncomingMessage } from 'node:http';
import type { Redis } from 'ioredis';
import {
  CANDIDATE_LINK_MSG,
  CONSENT_DOCUMENT,
  CONSENT_MSG,
  type AttemptDetail,
  type CandidateLinkCreated,
  type CandidateLinkPage,
  type CandidateLinkPublic,
  type CandidateStarted,
  type ResultsPage,
  type StartedAttempt,
} from '@portal/contracts';
import { api, publishedAuditEvents } from '@portal/devstack/testing';
import { waitFor } from '@portal/devstack/util';
import { clock, createRedis, DAY_MS, type ScheduledJob } from '@portal/service-kit';
import { userWithRole } from '@portal/svc-auth/testing';
import { progressCandidates, progressDeps } from '../../app';
import { startCandidateRetention } from '../../queues/candidateRetention';
import { seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

/** Candidate testing by link over the real auth, content and progress services. */
let bed: ProgressTestBed;
let seeded: SeededCourse;
let address = 0;
beforeAll(async () => {
  bed = await startProgress();
  seeded = await seedQuizCourse(bed, { settings: { maxAttempts: 5, timeLimit: 60 } });
});
afterAll(async () => {
  clock.reset();
  await bed.close();
});
afterEach(() => clock.reset());

/** Each test's public calls come from an address of its own, so the per-address limit counts them apart. */
const nextAddress = () => `198.51.100.${++address}`;
const call = <T = any>(method: string, path: string, token?: string, body?: unknown, from = '192.0.2.1') =>
  api<T>(bed.progress.url, method, path, { token, body, headers: { 'x-forwarded-for': from } });

const linkBody = (patch: Record<string, unknown> = {}) => ({
  courseId: seeded.course.id,
  lessonId: seeded.quizLessonId,
  maxUses: 10,
  timeLimitMinutes: 15,
  showResult: false,
  ...patch,
});
async function createLink(patch: Record<string, unknown> = {}, token = bed.as.CURATOR.token): Promise<CandidateLinkCreated> {
  const answer = await call<CandidateLinkCreated>('POST', '/api/candidate-links', token, linkBody(patch));
  expect(answer.status).toBe(201);
  return answer.body;
}
const candidate = (n = 1) => ({
  fullName: `Кандидатов Пётр ${n}`,
  email: `petr.${Date.now().toString(36)}.${n}@example.test`,
  consent: true,
  consentVersion: CONSENT_DOCUMENT.version,
});
const startLink = (token: string, body: unknown = candidate(), from = nextAddress()) =>
  call<CandidateStarted>('POST', `/api/candidate-links/public/${token}/start`, undefined, body, from);
const startAttempt = (s: CandidateStarted) =>
  call<StartedAttempt>('POST', '/api/attempts', s.token, { quizId: s.quizId, courseId: s.courseId, lessonId: s.lessonId });
const rightAnswers = (started: StartedAttempt) =>
  started.questions.map((q) => {
    if (q.type === 'single_choice') return { questionId: q.id, answer: q.options.indexOf('28') };
    if (q.type === 'true_false') return { questionId: q.id, answer: 'true' };
    return { questionId: q.id, answer: 'Трудовой кодекс' };
  });

describe('making candidate links', () => {
  it('lets the course’s curator make a link to its quiz lesson, shows the address once and lists it without it', async () => {
    const made = await createLink({ validUntil: '2099-12-31' });
    expect(made.url).toMatch(new RegExp(`/t/${made.token}$`));
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.link).toMatchObject({ quizId: seeded.quiz.id, maxUses: 10, uses: 0, timeLimitMinutes: 15, state: 'active' });
    const list = await call<CandidateLinkPage>('GET', '/api/candidate-links?limit=100', bed.as.CURATOR.token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((l) => l.id)).toContain(made.link.id);
    expect(JSON.stringify(list.body)).not.toContain(made.token);
    const events = await publishedAuditEvents(bed.progress);
    expect(
      events.some((e) => e.details.startsWith('Создана ссылка для кандидатов') && e.details.includes(seeded.quiz.title)),
    ).toBe(true);
  });

  it('reads the course and the lesson from content with the service’s identity, never the curator’s token', async () => {
    const seen: Array<{ line: string; userToken: boolean }> = [];
    const onRequest = (req: IncomingMessage) =>
      seen.push({ line: `${req.method} ${req.url?.split('?')[0]}`, userToken: !!req.headers.authorization });
    bed.content.server.on('request', onRequest);
    try {
      const made = await createLink();
      expect(made.link).toMatchObject({ courseId: seeded.course.id, lessonId: seeded.quizLessonId, quizId: seeded.quiz.id });
    } finally {
      bed.content.server.off('request', onRequest);
    }
    expect(seen).toEqual([
      { line: `GET /internal/courses/${seeded.course.id}/outline`, userToken: false },
      { line: `GET /internal/courses/${seeded.course.id}/lessons/${seeded.quizLessonId}/quiz`, userToken: false },
      { line: `GET /internal/quizzes/${seeded.quiz.id}`, userToken: false },
    ]);
  });

  it('refuses another curator’s course, a learner, no token, a link without validity and a lesson without a quiz', async () => {
    const other = await userWithRole(bed.auth, 'CURATOR', 'Другой Куратор');
    const notTheirs = await call('POST', '/api/candidate-links', other.token, linkBody());
    expect(notTheirs).toMatchObject({ status: 403, body: { message: CANDIDATE_LINK_MSG.notYours } });
    const learner = await bed.learner();
    expect((await call('POST', '/api/candidate-links', learner.token, linkBody())).status).toBe(403);
    expect((await call('GET', '/api/candidate-links', learner.token)).status).toBe(403);
    expect((await call('POST', '/api/candidate-links', undefined, linkBody())).status).toBe(401);
    const noValidity = await call('POST', '/api/candidate-links', bed.as.CURATOR.token, linkBody({ maxUses: null }));
    expect(noValidity).toMatchObject({ status: 400, body: { message: CANDIDATE_LINK_MSG.validityRequired } });
    const noQuiz = await call('POST', '/api/candidate-links', bed.as.CURATOR.token, linkBody({ lessonId: seeded.textLessonId }));
    expect(noQuiz).toMatchObject({ status: 400, body: { message: CANDIDATE_LINK_MSG.lessonHasNoQuiz } });
    const injected = await call('POST', '/api/candidate-links', bed.as.CURATOR.token, linkBody({ courseId: { $gt: '' } }));
    expect(injected.status).toBe(400);
    const list = await call<CandidateLinkPage>('GET', '/api/candidate-links', other.token);
    expect(list.body.total).toBe(0);
  });
});

describe('taking a quiz by link', () => {
  it('asks for consent, then the candidate takes the quiz graded on the server and never sees a right answer or the hidden result', async () => {
    const { token } = await createLink({ timeLimitMinutes: 7 });
    const view = await call<CandidateLinkPublic>(
      'GET',
      `/api/candidate-links/public/${token}`,
      undefined,
      undefined,
      nextAddress(),
    );
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ quizTitle: seeded.quiz.title, timeLimitMinutes: 7, showResult: false });
    expect(view.body.consent.version).toBe(CONSENT_DOCUMENT.version);
    // A candidate has no account menu: the text does not send them to one.
    expect(view.body.consent.paragraphs.join(' ')).not.toContain('меню учётной записи');
    expect(view.body.consent.paragraphs.at(-1)).toContain('организации, которая выдала мне ссылку');

    const noConsent = await startLink(token, { ...candidate(), consent: false });
    expect(noConsent).toMatchObject({ status: 400, body: { message: CONSENT_MSG.required } });
    const oldText = await startLink(token, { ...candidate(), consentVersion: '2020-01-01' });
    expect(oldText).toMatchObject({ status: 409, body: { message: CONSENT_MSG.outdated } });
    const started = await startLink(token);
    expect(started.status).toBe(201);
    const session = started.body;

    // The session reaches the link's quiz only.
    const results = await call('GET', '/api/results', session.token);
    expect(results).toMatchObject({ status: 403, body: { message: CANDIDATE_LINK_MSG.scopeOnly } });
    expect((await api(bed.content.url, 'GET', '/api/courses', { token: session.token })).status).toBe(403);

    const attempt = await startAttempt(session);
    expect(attempt.status).toBe(201);
    // The link's time limit and one attempt; the questions as shown carry no answers.
    expect(attempt.body.quiz).toMatchObject({ timeLimit: 7, maxAttempts: 1 });
    const deadline = Date.parse(attempt.body.deadline!) - Date.parse(attempt.body.attempt.startedAt);
    expect(deadline).toBe(7 * 60_000);
    const shown = JSON.stringify(attempt.body);
    expect(shown).not.toMatch(/correctAnswer|Трудовой кодекс/);

    const submitted = await call<AttemptDetail>('POST', `/api/attempts/${attempt.body.attempt.id}/submit`, session.token, {
      answers: rightAnswers(attempt.body),
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ status: 'submitted', resultHidden: true, score: 0, questions: [] });
    expect(JSON.stringify(submitted.body)).not.toMatch(/passed|correctAnswerText":"/);
    const again = await call<AttemptDetail>('GET', `/api/attempts/${attempt.body.attempt.id}`, session.token);
    expect(again.body).toMatchObject({ status: 'submitted', resultHidden: true });

    // Staff see the real result, marked «по ссылке».
    const staff = await call<AttemptDetail>('GET', `/api/attempts/${attempt.body.attempt.id}`, bed.as.ADMIN.token);
    expect(staff.body).toMatchObject({ status: 'passed', score: 3, maxScore: 3, viaLink: true });
    const listed = await call<ResultsPage>('GET', `/api/results?userId=${session.user.id}`, bed.as.CURATOR.token);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ userName: session.user.fullName, viaLink: true, status: 'passed' }),
    ]);
    // One attempt: a second start is refused.
    const second = await startAttempt(session);
    expect(second.status).toBe(409);
  });

  it('shows the result when the link allows it', async () => {
    const { token } = await createLink({ showResult: true, timeLimitMinutes: null });
    const session = (await startLink(token)).body;
    const attempt = (await startAttempt(session)).body;
    expect(attempt.quiz.timeLimit).toBe(60); // the quiz's own limit when the link sets none
    const submitted = await call<AttemptDetail>('POST', `/api/attempts/${attempt.attempt.id}/submit`, session.token, {
      answers: rightAnswers(attempt),
    });
    expect(submitted.body).toMatchObject({ status: 'passed', score: 3 });
    expect(submitted.body.resultHidden).toBeUndefined();
  });

  it('refuses a start on an attempt at another quiz than the link’s', async () => {
    const { token } = await createLink();
    const session = (await startLink(token)).body;
    const other = await seedQuizCourse(bed);
    const refused = await call('POST', '/api/attempts', session.token, {
      quizId: other.quiz.id,
      courseId: other.course.id,
      lessonId: other.quizLessonId,
    });
    expect(refused.status).toBe(403);
  });
});

describe('when a link stops working', () => {
  it('is used up after its number of uses, even when starts race', async () => {
    const { token, link } = await createLink({ maxUses: 2 });
    const starts = await Promise.all([1, 2, 3, 4].map((n) => startLink(token, candidate(n))));
    expect(starts.map((s) => s.status).sort()).toEqual([201, 201, 410, 410]);
    expect(starts.find((s) => s.status === 410)).toMatchObject({ body: { message: CANDIDATE_LINK_MSG.usedUp } });
    const view = await call('GET', `/api/candidate-links/public/${token}`, undefined, undefined, nextAddress());
    expect(view).toMatchObject({ status: 410, body: { message: CANDIDATE_LINK_MSG.usedUp } });
    const list = await call<CandidateLinkPage>('GET', '/api/candidate-links?limit=100', bed.as.CURATOR.token);
    expect(list.body.data.find((l) => l.id === link.id)).toMatchObject({ uses: 2, state: 'used_up' });
  });

  it('expires after its last day (the clock moved), with a clear Russian message', async () => {
    const tomorrow = new Date(clock.now().getTime() + DAY_MS).toISOString().slice(0, 10);
    const { token } = await createLink({ validUntil: tomorrow, maxUses: null });
    expect((await call('GET', `/api/candidate-links/public/${token}`, undefined, undefined, nextAddress())).status).toBe(200);
    clock.advance(3 * DAY_MS);
    const late = await startLink(token);
    expect(late).toMatchObject({ status: 410, body: { message: CANDIDATE_LINK_MSG.expired } });
    const past = await call('POST', '/api/candidate-links', bed.as.CURATOR.token, linkBody({ validUntil: tomorrow }));
    expect(past).toMatchObject({ status: 400, body: { message: CANDIDATE_LINK_MSG.validUntilInvalid } });
  });

  it('stops at once when revoked by its maker; another curator may not revoke it; twice is a conflict', async () => {
    const { token, link } = await createLink();
    const other = await userWithRole(bed.auth, 'CURATOR', 'Третий Куратор');
    const foreign = await call('POST', `/api/candidate-links/${link.id}/revoke`, other.token);
    expect(foreign).toMatchObject({ status: 403, body: { message: CANDIDATE_LINK_MSG.revokeNotYours } });
    const revoked = await call('POST', `/api/candidate-links/${link.id}/revoke`, bed.as.CURATOR.token);
    expect(revoked).toMatchObject({ status: 200, body: { state: 'revoked' } });
    expect(await startLink(token)).toMatchObject({ status: 410, body: { message: CANDIDATE_LINK_MSG.revoked } });
    expect((await call('POST', `/api/candidate-links/${link.id}/revoke`, bed.as.ADMIN.token)).status).toBe(409);
    expect((await call('POST', `/api/candidate-links/${JSON.stringify({ $gt: '' })}/revoke`, bed.as.ADMIN.token)).status).toBe(
      400,
    );
  });

  it('answers an unknown or malformed token with 404 in Russian', async () => {
    const from = nextAddress();
    expect(await call('GET', `/api/candidate-links/public/${'x'.repeat(43)}`, undefined, undefined, from)).toMatchObject({
      status: 404,
      body: { message: CANDIDATE_LINK_MSG.notFound },
    });
    expect((await call('GET', '/api/candidate-links/public/%7B%22%24gt%22%3A%22%22%7D', undefined, undefined, from)).status).toBe(
      404,
    );
  });
});

describe('the public routes’ rate limit', () => {
  it('answers 429 with Retry-After past the limit per address, and leaves other addresses alone', async () => {
    const { token } = await createLink();
    const from = nextAddress();
    const limit = bed.progress.ctx.config.CANDIDATE_LINK_RATE_LIMIT;
    const answers = [];
    for (let i = 0; i <= limit; i += 1)
      answers.push(await call('GET', `/api/candidate-links/public/${token}`, undefined, undefined, from));
    expect(answers.slice(0, limit).every((a) => a.status === 200)).toBe(true);
    const refused = answers[limit];
    expect(refused).toMatchObject({ status: 429, body: { message: CANDIDATE_LINK_MSG.tooManyRequests } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await startLink(token, candidate(), from)).status).toBe(429);
    expect((await call('GET', `/api/candidate-links/public/${token}`, undefined, undefined, nextAddress())).status).toBe(200);
  });
});

describe('deleting candidates after the retention period', () => {
  let connection: Redis;
  let retention: ScheduledJob | null = null;
  afterEach(async () => {
    await retention?.close();
    connection?.disconnect();
  });

  it('deletes a candidate older than 30 days with their attempts and saved answers, keeps a newer one, and audits the deletion', async () => {
    const { token } = await createLink();
    const old = (await startLink(token)).body;
    const oldAttempt = (await startAttempt(old)).body;
    await call('POST', `/api/attempts/${oldAttempt.attempt.id}/submit`, old.token, { answers: rightAnswers(oldAttempt) });
    // Another who left their attempt unfinished, with answers saved on the way.
    const leftOpen = (await startLink(token, candidate(2))).body;
    const openAttempt = (await startAttempt(leftOpen)).body;
    const saved = await call('PUT', `/api/attempts/${openAttempt.attempt.id}/answers`, leftOpen.token, {
      answers: rightAnswers(openAttempt),
    });
    expect(saved.status).toBe(200);
    expect(await bed.store.attemptDrafts.countDocuments({ userId: leftOpen.user.id })).toBe(1);
    clock.advance(20 * DAY_MS);
    const recent = (await startLink(token)).body;
    clock.advance(11 * DAY_MS);

    connection = createRedis(bed.progress.ctx.config.REDIS_URL, bed.progress.ctx.logger);
    retention = startCandidateRetention(
      connection,
      progressDeps(bed.progress.ctx),
      progressCandidates(bed.progress.ctx),
      bed.progress.ctx.logger,
      {
        days: 30,
        everyMs: 300,
        prefix: bed.progress.ctx.config.QUEUE_PREFIX,
      },
    );
    await retention.scheduled;
    // The sweep's audit record is written last, once a round found nobody left.
    const purgesOf = async () =>
      (await publishedAuditEvents(bed.progress)).filter((e) => e.details.startsWith('Удалены данные кандидатов'));
    await waitFor(async () => (await purgesOf()).length > 0, 'the retention sweep', 20_000);
    expect(await bed.store.attempts.countDocuments({ userId: old.user.id })).toBe(0);
    expect(await bed.store.attempts.countDocuments({ userId: leftOpen.user.id })).toBe(0);
    expect(await bed.store.attemptDrafts.countDocuments({ userId: leftOpen.user.id })).toBe(0);

    // The old candidate's session and account are gone everywhere; the recent one still works.
    expect((await api(bed.auth.url, 'GET', '/api/auth/profile', { token: old.token })).status).toBe(401);
    expect((await call('GET', `/api/attempts/${oldAttempt.attempt.id}`, bed.as.ADMIN.token)).status).toBe(404);
    expect((await api(bed.auth.url, 'GET', '/api/auth/profile', { token: recent.token })).status).toBe(200);
    const users = await api(bed.auth.url, 'GET', `/internal/users?ids=${old.user.id},${recent.user.id}`, {
      headers: { 'x-internal-token': bed.auth.ctx.config.INTERNAL_TOKEN },
    });
    expect(users.body.data.map((u: { id: string }) => u.id)).toEqual([recent.user.id]);
    const [purge] = await purgesOf();
    expect(purge).toMatchObject({ action: 'delete', entity: 'user', actor: null });
  });
});
