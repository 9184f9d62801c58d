import { createDocument } from 'zod-openapi';
import { CONSENT_MSG, MSG, ROLES, type Role } from '@portal/contracts';
import { api, publishedAuditEvents, startTestService, type TestService } from '@portal/devstack/testing';
import { startAuth, userWithRole } from '@portal/svc-auth/testing';
import { declaredPaths } from '../../../../gateway/src/openapi/declared';
import { notesApi, notesRouters } from '../../../service-kit/src/fixtures/notes-service';
import { CALLERS, declaredRoutes, type Caller } from './portal';
import { declaredRules, expectedFor, fillPath, routeKey } from './routeTable';

/**
 * One declaration per route: a fixture service adds routes by declaring them beside their handlers,
 * and the Koa routes, the OpenAPI document and the security matrix all have them, alike.
 */

let auth: TestService;
let notes: TestService;
const tokens: Partial<Record<Role, string>> = {};
beforeAll(async () => {
  auth = await startAuth();
  notes = await startTestService('content', notesRouters, { env: { AUTH_URL: auth.url } });
  for (const role of ROLES) tokens[role] = (await userWithRole(auth, role)).token;
}, 60_000);
afterAll(async () => {
  await notes?.close();
  await auth?.close();
});

const tokenOf = (caller: Caller) => (caller === 'anonymous' ? undefined : tokens[caller]);

describe('a declared route on the Koa router', () => {
  it('validates its body and params with Russian messages that name the field', async () => {
    const empty = await api(notes.url, 'POST', '/api/notes', { token: tokens.ADMIN, body: { text: '  ' } });
    const unknown = await api(notes.url, 'POST', '/api/notes', { token: tokens.ADMIN, body: { text: 'Мел', colour: 'red' } });
    const badId = await api(notes.url, 'GET', '/api/notes/first', { token: tokens.ADMIN });
    const badQuery = await api(notes.url, 'GET', '/api/notes/1?upper=loud', { token: tokens.ADMIN });

    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ message: 'Введите текст заметки', field: 'text', statusCode: 400 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/[а-я]/i);
    expect(badId.body).toMatchObject({ message: 'Номер заметки — это число', field: 'noteId', statusCode: 400 });
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.field).toBe('upper');
  });

  it('checks the roles its policy names before it reads the input', async () => {
    const anonymous = await api(notes.url, 'GET', '/api/notes/first');
    const client = await api(notes.url, 'GET', '/api/notes/first', { token: tokens.CLIENT });
    const curator = await api(notes.url, 'POST', '/api/notes', { token: tokens.CURATOR, body: { text: '' } });

    expect([anonymous.status, client.status, curator.status]).toEqual([401, 403, 403]);
  });

  it('runs its handler with the parsed input, answers the declared status and records the declared audit event', async () => {
    const created = await api(notes.url, 'POST', '/api/notes', { token: tokens.ADMIN, body: { text: '  Купить мел ' } });
    const read = await api(notes.url, 'GET', `/api/notes/${created.body.id}?upper=yes`, { token: tokens.CURATOR });
    const count = await api(notes.url, 'GET', '/api/notes/count');

    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), text: 'Купить мел' });
    expect(read.body).toEqual({ id: created.body.id, text: 'КУПИТЬ МЕЛ' });
    expect(count.body.count).toBeGreaterThanOrEqual(1);
    const events = await publishedAuditEvents(notes);
    expect(events).toContainEqual(
      expect.objectContaining({
        action: 'create',
        entity: 'course',
        entityId: created.body.id,
        code: 'course.created',
        data: { title: 'Купить мел' },
        details: 'Создан курс «Купить мел»',
      }),
    );
  });

  it('checks the consent its policy puts first before the roles, and leaves a streamed body to the handler', async () => {
    const noConsent = {
      CLIENT: (await userWithRole(auth, 'CLIENT', 'Клиент Без Согласия', { consent: false })).token,
      CURATOR: (await userWithRole(auth, 'CURATOR', 'Куратор Без Согласия', { consent: false })).token,
    };
    const form = () => {
      const data = new FormData();
      data.append('file', new Blob([Buffer.alloc(2048, 1)]), 'приложение.bin');
      return data;
    };
    const attach = (token: string | undefined) =>
      fetch(`${notes.url}/api/notes/1/attachments`, {
        method: 'POST',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        body: form(),
      });

    const refused = await Promise.all([noConsent.CURATOR, noConsent.CLIENT, tokens.CURATOR].map(attach));
    const messages = await Promise.all(refused.map(async (r) => ((await r.json()) as { message: string }).message));
    const taken = await attach(tokens.CLIENT);

    expect(refused.map((r) => r.status)).toEqual([403, 403, 403]);
    expect(messages).toEqual([CONSENT_MSG.neededToStudy, CONSENT_MSG.neededToStudy, MSG.forbidden]);
    expect(taken.status).toBe(201);
    expect(((await taken.json()) as { bytes: number }).bytes).toBeGreaterThan(2048);
  });

  it('applies the limit its declaration names', async () => {
    const token = (await userWithRole(auth, 'ADMIN', 'Торопливый Админ')).token;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await api(notes.url, 'POST', '/api/notes', { token, body: { text: `Заметка ${i}` } })).status);

    expect(statuses).toEqual([201, 201, 201, 429]);
  });
});

describe('the same declarations in the OpenAPI document', () => {
  const document = createDocument({
    openapi: '3.1.0',
    info: { title: 'Заметки', version: '1' },
    paths: declaredPaths('content', notesApi),
  });
  type Operation = { operationId: string; 'x-roles'?: string[]; responses: Record<string, unknown>; requestBody?: unknown };
  const operation = (path: string, method: string) => (document.paths as Record<string, Record<string, Operation>>)[path][method];

  it('has every declared route, named by its operationId', () => {
    const named = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Operation>).map(
        ([method, op]) => `${op.operationId} ${method.toUpperCase()} ${path}`,
      ),
    );

    expect(named.sort()).toEqual([
      'attachToNote POST /api/notes/{noteId}/attachments',
      'countNotes GET /api/notes/count',
      'createNote POST /api/notes',
      'readNote GET /api/notes/{noteId}',
    ]);
  });

  it("gives each operation its roles, its input's 400, its access refusals, its rate limit's 429 and its answer", () => {
    const read = operation('/api/notes/{noteId}', 'get');
    const create = operation('/api/notes', 'post');
    const count = operation('/api/notes/count', 'get');

    expect(read['x-roles']).toEqual(['ADMIN', 'CURATOR']);
    expect(Object.keys(read.responses)).toEqual(['200', '400', '401', '403', '404']);
    expect(create['x-roles']).toEqual(['ADMIN']);
    expect(Object.keys(create.responses)).toEqual(['201', '400', '401', '403', '429']);
    expect(create.requestBody).toMatchObject({ content: { 'application/json': { example: { text: 'Купить мел' } } } });
    expect(count['x-roles']).toBeUndefined();
    expect(Object.keys(count.responses)).toEqual(['200']);
  });

  it('documents a streamed body by its media type and schema', () => {
    const attach = operation('/api/notes/{noteId}/attachments', 'post');

    expect(attach['x-roles']).toEqual(['ADMIN', 'CLIENT']);
    expect(attach.requestBody).toMatchObject({
      content: { 'multipart/form-data': { schema: { properties: { file: { format: 'binary' } }, required: ['file'] } } },
    });
    expect(Object.keys(attach.responses)).toEqual(['201', '400', '401', '403']);
  });
});

describe('the same declarations in the security matrix', () => {
  const rules = declaredRules('content', notesApi, { readNote: () => ({ params: { noteId: '1' }, ok: 200 }) });

  it('has a row for every route the router serves, and no other', () => {
    const served = declaredRoutes('content', notesRouters(notes.ctx)).map(routeKey);

    expect(served.sort()).toEqual(Object.keys(rules).sort());
  });

  it('holds the live service to its rows: every route × anonymous and the five roles', async () => {
    const writer = (await userWithRole(auth, 'ADMIN', 'Пишущий Админ')).token;
    await api(notes.url, 'POST', '/api/notes', { token: writer, body: { text: 'Первая' } });
    const problems: string[] = [];
    for (const route of declaredRoutes('content', notesRouters(notes.ctx))) {
      const rule = rules[routeKey(route)];
      for (const caller of CALLERS) {
        const request = (await rule.request?.({} as never, caller)) ?? {};
        const expected = expectedFor(rule, caller);
        const answer = await api(notes.url, route.method, fillPath(route.path, request.params), {
          token: tokenOf(caller),
          body: route.method === 'POST' ? { text: `От ${caller}` } : undefined,
        });
        // A caller let through may meet the route's own limit (429): that is past the role check.
        const right = expected === 'ok' ? answer.status < 400 || answer.status === 429 : answer.status === expected;
        if (!right) problems.push(`${routeKey(route)} as ${caller}: expected ${expected}, got ${answer.status}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
