import { CONTENT_MSG, MSG } from '@portal/contracts';
import { api, type ApiAnswer } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { seedQuizCourse } from '@portal/svc-progress/testing';
import { CALLERS, eachConcurrently, serviceUrl, startPortal, type Caller, type DeclaredRoute, type Portal } from './portal';
import {
  ANSWER_READS,
  AUTHOR_READS,
  OWNED_WRITES,
  OWNERSHIP_EXEMPT,
  ROUTE_RULES,
  expectedFor,
  fillPath,
  fresh,
  ownedCourse,
  routeKey,
  type CellRequest,
} from './routeTable';

const INTERNAL_TOKEN = process.env.INTERNAL_TOKEN!;

let portal: Portal;
let routes: DeclaredRoute[];
beforeAll(async () => {
  portal = await startPortal();
  routes = portal.routes();
}, 60_000);
afterAll(() => portal?.close());

/** A cell's answer is what was expected; 'ok' means the route ran for the caller (no refusal, no crash, no unknown route). */
function cellProblem(expected: 'ok' | number, request: CellRequest, answer: ApiAnswer): string | null {
  if (answer.status >= 500) return `crashed with ${answer.status}`;
  if (expected === 'ok') {
    if (answer.status === 401 || answer.status === 403) return `refused with ${answer.status}`;
    if (answer.status === 404 && answer.body?.message === MSG.notFoundRoute) return 'route not found';
    if (request.ok !== undefined && answer.status !== request.ok) return `expected ${request.ok}, got ${answer.status}`;
    return null;
  }
  return answer.status === expected ? null : `expected ${expected}, got ${answer.status}`;
}

async function callCell(
  base: string,
  route: DeclaredRoute,
  request: CellRequest,
  headers: Record<string, string>,
  token?: string,
) {
  return api(base, route.method, `${fillPath(route.path, request.params)}${request.query ?? ''}`, {
    token,
    body: request.body,
    headers,
  });
}

describe('the route table', () => {
  it('classifies every route the five services declare, and names no route that does not exist', () => {
    const declared = new Set(routes.map(routeKey));
    const unclassified = [...declared].filter((key) => !ROUTE_RULES[key]);
    const vanished = Object.entries(ROUTE_RULES)
      .filter(([key, rule]) => !rule.pending && !declared.has(key))
      .map(([key]) => key);
    expect(unclassified).toEqual([]);
    expect(vanished).toEqual([]);
    expect(declared.size).toBeGreaterThan(50);
  });
});

describe('authorization matrix: every route × anonymous and the five roles, straight to each service', () => {
  it.each(['auth', 'content', 'progress', 'crm', 'audit'] as const)(
    '%s enforces its rules without the gateway',
    async (service) => {
      const problems: string[] = [];
      // A few routes at a time: each cell has its own records and sessions where it changes any.
      await eachConcurrently(
        routes.filter((r) => r.service === service),
        async (route) => {
          const rule = ROUTE_RULES[routeKey(route)];
          if (!rule) return; // reported by the route-table test
          await Promise.all(
            CALLERS.map(async (caller: Caller) => {
              const request = (await rule.request?.(portal, caller)) ?? {};
              const answer = await callCell(
                serviceUrl(portal, service),
                route,
                request,
                {},
                request.token ?? portal.tokenOf(caller),
              );
              const problem = cellProblem(expectedFor(rule, caller), request, answer);
              if (problem)
                problems.push(`${routeKey(route)} as ${caller}: ${problem} ${JSON.stringify(answer.body).slice(0, 120)}`);
            }),
          );
          if (rule.access === 'internal') {
            const request = (await rule.request?.(portal, 'anonymous')) ?? {};
            const right = await callCell(serviceUrl(portal, service), route, request, { 'x-internal-token': INTERNAL_TOKEN });
            const problem = cellProblem('ok', request, right);
            if (problem) problems.push(`${routeKey(route)} with the internal token: ${problem}`);
            const wrong = await callCell(serviceUrl(portal, service), route, request, {
              'x-internal-token': `${INTERNAL_TOKEN.slice(0, -1)}x`,
            });
            if (wrong.status !== 403) problems.push(`${routeKey(route)} with a wrong internal token: ${wrong.status}`);
          }
        },
        3,
      );
      expect(problems).toEqual([]);
    },
    60_000,
  );
});

describe('through the gateway', () => {
  const GATEWAY_HEADERS = (answer: ApiAnswer): string[] => {
    const h = answer.headers;
    const missing: string[] = [];
    if (!h.get('content-security-policy')?.includes("frame-ancestors 'none'")) missing.push('CSP frame-ancestors');
    if (!h.get('strict-transport-security')?.includes('max-age=')) missing.push('HSTS');
    if (h.get('x-content-type-options') !== 'nosniff') missing.push('nosniff');
    if (!h.get('referrer-policy')) missing.push('Referrer-Policy');
    if (h.get('x-powered-by') !== null) missing.push('X-Powered-By present');
    return missing;
  };

  it('answers every public route anonymously as the service does, with the security headers on every answer', async () => {
    const problems: string[] = [];
    await eachConcurrently(
      routes.filter((r) => !r.path.startsWith('/internal')),
      async (route) => {
        const rule = ROUTE_RULES[routeKey(route)];
        if (!rule) return;
        const request = (await rule.request?.(portal, 'anonymous')) ?? {};
        const answer = await callCell(portal.gateway.url, route, request, {});
        const problem = cellProblem(expectedFor(rule, 'anonymous'), request, answer);
        if (problem) problems.push(`${routeKey(route)}: ${problem}`);
        // A SCORM package's files carry their own policy: a sandbox the portal's player may frame.
        const missing = route.path.startsWith('/scorm/')
          ? GATEWAY_HEADERS(answer).filter((m) => m !== 'CSP frame-ancestors')
          : GATEWAY_HEADERS(answer);
        if (
          route.path.startsWith('/scorm/') &&
          !/^sandbox .*frame-ancestors 'self'/.test(answer.headers.get('content-security-policy') ?? '')
        )
          missing.push('SCORM sandbox CSP');
        if (missing.length) problems.push(`${routeKey(route)}: headers ${missing.join(', ')}`);
      },
    );
    // The gateway's own routes: the dashboard needs a valid token, the health summary is public.
    const dashboard = await api(portal.gateway.url, 'GET', '/api/dashboard/stats');
    if (dashboard.status !== 401) problems.push(`gateway GET /api/dashboard/stats: ${dashboard.status}`);
    const forged = await api(portal.gateway.url, 'GET', '/api/dashboard/stats', {
      token: `${portal.as.ADMIN.token.slice(0, -2)}xx`,
    });
    if (forged.status !== 401) problems.push(`gateway GET /api/dashboard/stats with a forged token: ${forged.status}`);
    // Answers the gateway writes itself (unknown API route, shell page) carry them too.
    for (const path of ['/api/nothing-here', '/api/health', '/api/dashboard/stats', '/', '/courses', '/remotes.json']) {
      const missing = GATEWAY_HEADERS(await api(portal.gateway.url, 'GET', path));
      if (missing.length) problems.push(`${path}: headers ${missing.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });

  it('never exposes /internal, even with the internal token and path tricks', async () => {
    const headers = { 'x-internal-token': INTERNAL_TOKEN };
    const internal = routes.filter((r) => r.path.startsWith('/internal'));
    expect(internal.length).toBeGreaterThanOrEqual(6);
    const paths = [
      ...internal.map((r) => fillPath(r.path, { id: portal.victim.user.id })),
      '/api/internal/stats',
      '/api/courses/..%2f..%2finternal/stats',
      '/api/%2e%2e/internal/stats',
      `/api/users/..%2f..%2finternal/users/${portal.victim.user.id}`,
    ];
    for (const path of paths) {
      const answer = await api(portal.gateway.url, 'GET', path, { headers });
      // The shell page or a 404, never a service's internal JSON.
      expect({
        path,
        leaked: /totalCourses|totalStudents|organizations|byDay|questions|"role"/.test(JSON.stringify(answer.body)),
      }).toEqual({
        path,
        leaked: false,
      });
      expect(answer.status === 404 || String(answer.headers.get('content-type')).startsWith('text/html')).toBe(true);
    }
  });

  it('refuses API calls from a foreign origin and from `null`, before they reach a service', async () => {
    const fresh = await userWithRole(portal.auth, 'CANDIDATE', 'Кросс Ориджин');
    for (const origin of [
      'https://evil.example',
      'null',
      'http://127.0.0.1.evil.example',
      `${portal.gateway.url}.evil.example`,
    ]) {
      const answer = await api(portal.gateway.url, 'POST', `/api/courses/${portal.seeded.course.id}/favorite`, {
        token: fresh.token,
        headers: { origin },
      });
      expect({ origin, status: answer.status }).toEqual({ origin, status: 403 });
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    }
    // Nothing reached the content service: no favourite was stored.
    expect(await portal.models.marks.countDocuments({ userId: fresh.user.id })).toBe(0);
    const own = await api(portal.gateway.url, 'POST', `/api/courses/${portal.seeded.course.id}/favorite`, {
      token: fresh.token,
      headers: { origin: portal.gateway.url },
    });
    expect(own.status).toBe(200);
    expect(await portal.models.marks.countDocuments({ userId: fresh.user.id, kind: 'favorite' })).toBe(1);
  });
});

describe('IDOR: another learner cannot read or change the victim’s records by id', () => {
  let attacker: Awaited<ReturnType<typeof userWithRole>>;
  beforeAll(async () => {
    attacker = await userWithRole(portal.auth, 'CLIENT', 'Алексей Любопытный');
  });
  const as = (method: string, path: string, body?: unknown) =>
    api(portal.progress.url, method, path, { token: attacker.token, body });

  it('cannot read or submit the victim’s attempt; the attempt is unchanged', async () => {
    const id = portal.victimAttemptId;
    const before = await portal.store.attempts.findById(id).lean();
    expect((await as('GET', `/api/attempts/${id}`)).status).toBe(404);
    const submit = await as('POST', `/api/attempts/${id}/submit`, { answers: [{ questionId: 'q1', answer: 1, timeSpent: 1 }] });
    expect(submit.status).toBe(404);
    const after = await portal.store.attempts.findById(id).lean();
    expect(after).toEqual(before);
    // Through the gateway, the same.
    const viaGateway = await api(portal.gateway.url, 'GET', `/api/attempts/${id}`, { token: attacker.token });
    expect(viaGateway.status).toBe(404);
  });

  it('cannot list the victim’s results by naming them, nor find them by search or in the CSV', async () => {
    const named = await as('GET', `/api/results?userId=${portal.victim.user.id}`);
    expect(named.status).toBe(403);
    const searched = await as('GET', `/api/results?search=${encodeURIComponent('Вера')}`);
    expect(searched.status).toBe(200);
    expect(searched.body.data).toEqual([]);
    expect(searched.body.summary.total).toBe(0);
    const csv = await api(portal.progress.url, 'GET', '/api/results/export', { token: attacker.token });
    expect(csv.status).toBe(200);
    expect(String(csv.body)).not.toContain('Вера');
    const exportNamed = await api(portal.progress.url, 'GET', `/api/results/export?userId=${portal.victim.user.id}`, {
      token: attacker.token,
    });
    expect(String(exportNamed.body)).not.toContain('Вера');
    // Staff do see it, so the search above would have found it.
    const staff = await api(portal.progress.url, 'GET', `/api/results?userId=${portal.victim.user.id}`, {
      token: portal.as.CURATOR.token,
    });
    expect(staff.body.data.map((a: { id: string }) => a.id)).toContain(portal.victimAttemptId);
  });

  it('sees only its own progress, whatever user id it sends; the victim’s completions are untouched', async () => {
    const { course, textLessonId } = portal.seeded;
    const victimBefore = await portal.store.completions.countDocuments({ userId: portal.victim.user.id });
    expect(victimBefore).toBe(1);
    const progress = await as('GET', `/api/progress/course/${course.id}?userId=${portal.victim.user.id}`);
    expect(progress.status).toBe(200);
    expect(progress.body.completedLessonIds).toEqual([]);
    const lessons = await as('GET', `/api/progress/course/${course.id}/lessons?userId=${portal.victim.user.id}`);
    expect(lessons.body).toEqual([]);
    const mine = await as('GET', `/api/progress/my?userId=${portal.victim.user.id}`);
    expect(mine.body).toEqual([]);
    // A userId in the body neither completes the lesson for the victim nor is refused silently as someone else's.
    const complete = await as('POST', `/api/progress/lesson/${textLessonId}/complete`, {
      courseId: course.id,
      userId: portal.victim.user.id,
    });
    expect([201, 400]).toContain(complete.status);
    expect(await portal.store.completions.countDocuments({ userId: portal.victim.user.id })).toBe(victimBefore);
    if (complete.status === 201) {
      expect(await portal.store.completions.countDocuments({ userId: attacker.user.id })).toBe(1);
    }
  });

  it('cannot see or remove the victim’s favourites and started marks', async () => {
    const { course } = portal.seeded;
    const victimMarks = () => portal.models.marks.countDocuments({ userId: portal.victim.user.id });
    expect(await victimMarks()).toBe(2);
    const favourites = await api(portal.content.url, 'GET', `/api/courses/favorites/my?userId=${portal.victim.user.id}`, {
      token: attacker.token,
    });
    expect(favourites.body).toEqual([]);
    const started = await api(portal.content.url, 'GET', '/api/courses/started/my', { token: attacker.token });
    expect(started.body).toEqual([]);
    const removed = await api(
      portal.content.url,
      'DELETE',
      `/api/courses/${course.id}/favorite?userId=${portal.victim.user.id}`,
      {
        token: attacker.token,
      },
    );
    expect(removed.status).toBe(200);
    expect(removed.body.isFavorite).toBe(false);
    expect(await victimMarks()).toBe(2);
    const card = await api(portal.content.url, 'GET', `/api/courses/${course.id}`, { token: portal.victim.token });
    expect(card.body.isFavorite).toBe(true);
  });

  it('cannot read the card of a quiz it cannot see (a draft course, or in no lesson) through the progress service', async () => {
    const draft = await seedQuizCourse(portal, { title: 'Черновик с квизом' });
    await api(portal.content.url, 'PATCH', `/api/courses/${draft.course.id}`, {
      token: portal.as.CURATOR.token,
      body: { status: 'draft', version: draft.course.version },
    });
    const loose = await api(portal.content.url, 'POST', '/api/quizzes', {
      token: portal.as.CURATOR.token,
      body: { title: 'Квиз без урока', description: 'Секретное описание' },
    });
    expect(loose.status).toBe(201);
    for (const quizId of [draft.quiz.id, loose.body.id]) {
      // The content service hides it from the learner; the progress service must not show it either.
      expect((await api(portal.content.url, 'GET', `/api/quizzes/${quizId}`, { token: attacker.token })).status).toBe(404);
      const card = await as('GET', `/api/attempts/quiz/${quizId}`);
      expect({ quizId, status: card.status }).toEqual({ quizId, status: 404 });
      expect(JSON.stringify(card.body)).not.toMatch(/Секретное|Черновик/);
    }
    // The published one still has its card.
    expect((await as('GET', `/api/attempts/quiz/${portal.seeded.quiz.id}`)).status).toBe(200);
  });

  it('cannot read or change the victim’s profile; the stored user is unchanged', async () => {
    const id = portal.victim.user.id;
    const before = await portal.auth.ctx.store.collection('users').findOne({ email: portal.victim.user.email });
    expect((await api(portal.auth.url, 'GET', `/api/users/${id}`, { token: attacker.token })).status).toBe(403);
    const patch = await api(portal.auth.url, 'PATCH', `/api/users/${id}`, {
      token: attacker.token,
      body: { fullName: 'Взломано', email: 'attacker@example.test', role: 'ADMIN', version: portal.victim.user.version },
    });
    expect(patch.status).toBe(403);
    expect((await api(portal.auth.url, 'DELETE', `/api/users/${id}`, { token: attacker.token })).status).toBe(403);
    const profile = await api(portal.auth.url, 'GET', `/api/auth/profile?id=${id}`, { token: attacker.token });
    expect(profile.body.user.id).toBe(attacker.user.id);
    const after = await portal.auth.ctx.store.collection('users').findOne({ email: portal.victim.user.email });
    expect(after).toEqual(before);
  });
});

describe('ownership: a curator changes nothing in another curator’s course', () => {
  it('names every content write route: ruled by ownership, or exempt for a stated reason', () => {
    const writes = routes.filter((r) => r.service === 'content' && r.method !== 'GET' && !r.path.startsWith('/internal'));
    const unruled = writes.map(routeKey).filter((key) => !OWNED_WRITES[key] && !OWNERSHIP_EXEMPT[key]);
    expect(unruled).toEqual([]);
  });

  it('answers 403 in Russian on every write route of the course, its modules, lessons, blocks and quizzes; nothing changes', async () => {
    const other = await fresh.curator(portal);
    const owned = await ownedCourse(portal);
    const snapshot = async () => ({
      course: await portal.models.courses.findById(owned.courseId).lean(),
      blocks: await portal.models.blocks.find({ courseId: owned.courseId }).sort({ _id: 1 }).lean(),
      quizzes: await portal.models.quizzes.countDocuments({}),
    });
    const before = await snapshot();
    const problems: string[] = [];
    for (const route of routes.filter((r) => OWNED_WRITES[routeKey(r)])) {
      const request = OWNED_WRITES[routeKey(route)](owned);
      const answer = await callCell(portal.content.url, route, request, {}, other.token);
      if (answer.status !== 403 || !/[а-я]/i.test(String(answer.body?.message)))
        problems.push(`${routeKey(route)}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 120)}`);
    }
    expect(problems).toEqual([]);
    expect(await snapshot()).toEqual(before);
    // Through the gateway the same: the course's title is another curator's to keep.
    const viaGateway = await api(portal.gateway.url, 'PATCH', `/api/courses/${owned.courseId}`, {
      token: other.token,
      body: { title: 'Захвачен', version: 0 },
    });
    expect([viaGateway.status, viaGateway.body.message]).toEqual([403, CONTENT_MSG.notCourseAuthor]);
  });
});

describe('ownership: a curator reads nothing of another curator’s draft course, its answer keys or its bank', () => {
  it('is hidden (404) or refused (403, in Russian) on each read; the owner and ADMIN read them', async () => {
    const other = await fresh.curator(portal);
    const owned = await ownedCourse(portal, { draft: true });
    const problems: string[] = [];
    for (const route of routes.filter((r) => AUTHOR_READS[routeKey(r)])) {
      const { request, status } = AUTHOR_READS[routeKey(route)];
      const answer = await callCell(portal.content.url, route, request(owned), {}, other.token);
      if (answer.status !== status) problems.push(`${routeKey(route)}: ${answer.status}, expected ${status}`);
      if (!/[а-я]/i.test(String(answer.body?.message))) problems.push(`${routeKey(route)}: no Russian message`);
      for (const caller of ['CURATOR', 'ADMIN'] as const) {
        const own = await callCell(portal.content.url, route, request(owned), {}, portal.as[caller].token);
        if (own.status !== 200) problems.push(`${routeKey(route)} as ${caller}: ${own.status}`);
      }
    }
    expect(problems).toEqual([]);
    expect(Object.keys(AUTHOR_READS).filter((key) => !routes.some((r) => routeKey(r) === key))).toEqual([]);
  });
});

describe('ownership: a curator reads no answers or results of another curator’s course', () => {
  it('names every route that reads answers or results', () => {
    const reads = routes.filter(
      (r) =>
        r.service === 'progress' &&
        (/^\/api\/(results|reviews|attempts\/:id$)/.test(r.path) ||
          (r.method === 'GET' && r.path.startsWith('/api/scorm/attempts'))),
    );
    expect(reads.map(routeKey).filter((key) => !ANSWER_READS[key])).toEqual([]);
  });

  it('is refused or hidden on each, in Russian, and a 200 holds nothing of the victim; the owner and ADMIN read them', async () => {
    const other = await fresh.curator(portal);
    const problems: string[] = [];
    for (const route of routes.filter((r) => ANSWER_READS[routeKey(r)])) {
      const { request, status } = ANSWER_READS[routeKey(route)];
      const answer = await callCell(portal.progress.url, route, request(portal), {}, other.token);
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      if (answer.status !== status) problems.push(`${routeKey(route)}: ${answer.status}, expected ${status}`);
      if (status !== 200 && !/[а-я]/i.test(String(answer.body?.message))) problems.push(`${routeKey(route)}: no Russian message`);
      if (text.includes(portal.victim.user.fullName)) problems.push(`${routeKey(route)}: names the victim`);
    }
    expect(problems).toEqual([]);
    for (const caller of ['CURATOR', 'ADMIN'] as const) {
      const attempt = await api(portal.progress.url, 'GET', `/api/attempts/${portal.victimAttemptId}`, {
        token: portal.as[caller].token,
      });
      expect([caller, attempt.status, attempt.body.userName]).toEqual([caller, 200, portal.victim.user.fullName]);
    }
  });
});

describe('the application flow: a self-registered curator has staff rights only after an ADMIN approves', () => {
  it('studies as a candidate while pending, and gets the curator’s rights on the next request after approval', async () => {
    const gateway = portal.gateway.url;
    const registered = await api(gateway, 'POST', '/api/auth/register', {
      body: {
        email: `flow.${Date.now().toString(36)}@example.test`,
        password: 'Kursy-Portal-42',
        fullName: 'Ксения Заявкина',
        role: 'CURATOR',
      },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.user.role).toBe('CANDIDATE');
    const token = registered.body.token as string;
    const applicationId = registered.body.application.id as string;
    const staffReads = async () => [
      (await api(gateway, 'GET', '/api/users', { token })).status,
      (await api(gateway, 'GET', '/api/audit', { token })).status,
      (await api(gateway, 'POST', '/api/courses', { token, body: { title: 'Курс заявителя' } })).status,
    ];
    expect(await staffReads()).toEqual([403, 403, 403]);
    // Nobody but an ADMIN decides it; the applicant least of all.
    for (const caller of [token, portal.as.CURATOR.token, portal.as.MANAGER.token]) {
      expect((await api(gateway, 'POST', `/api/applications/${applicationId}/approve`, { token: caller })).status).toBe(403);
    }
    expect(await staffReads()).toEqual([403, 403, 403]);

    const approved = await api(gateway, 'POST', `/api/applications/${applicationId}/approve`, { token: portal.as.ADMIN.token });
    expect(approved.status).toBe(200);
    expect(await staffReads()).toEqual([200, 200, 201]);
  });
});
