import Ajv2020 from 'ajv/dist/2020';
import type { Router as ExpressRouter } from 'express';
import pino from 'pino';
import createClient from 'openapi-fetch';
import { CONTENT_BLOCK_TYPES, CONTENT_MSG, MSG, type Role } from '@portal/contracts';
import { api, type ApiAnswer } from '@portal/devstack/testing';
import { createGateway } from '../../../../gateway/src/app';
import { gatewayConfigSchema } from '../../../../gateway/src/config';
import { openApiDocument } from '../../../../gateway/src/openapi';
import { ROLES_IN_ORDER, startPortal, type Caller, type DeclaredRoute, type Portal } from '../security/portal';
import { ROUTE_RULES, fillPath, routeKey, type RouteRule } from '../security/routeTable';
import { committedClientTypes, generatedClientTypes } from './clientTypes';
import type { paths } from './client.generated';

/** The body of POST /api/blocks as the generated client types it. */
type BlockCreateBody = NonNullable<paths['/api/blocks']['post']['requestBody']>['content']['application/json'];

/**
 * The OpenAPI document against the running portal: every route the services' routers and the
 * gateway declare is in it and nothing else, with the roles the authorization matrix holds them to,
 * and real answers of every route (its success, and its refusals) match what it says.
 */

type Content = Record<string, { schema?: unknown; example?: unknown }>;
type Operation = {
  'x-roles'?: Role[];
  requestBody?: { content: Content };
  responses: Record<string, { content?: Content; headers?: Record<string, { required?: boolean }> }>;
};
const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, Operation>> };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `/api/users/:id` as the document writes it: `/api/users/{id}`. */
const documentPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const operationOf = (route: { method: string; path: string }): Operation | undefined =>
  doc.paths[documentPath(route.path)]?.[route.method.toLowerCase()];

const documented = (): string[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => METHODS.includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );

/** Routes the services keep for each other: the gateway never exposes them, the document leaves them out. */
const isInternal = (route: DeclaredRoute) => route.path.startsWith('/internal/');
/** Gateway routes that are not API: the front end's manifest and the files of the docs page. */
// The front ends' files and pages: `/` is the shell's page with the landing pre-rendered in it.
const NOT_API = new Set(['GET /', 'GET /remotes.json', 'GET /api/docs/start.js', 'GET /api/docs/:file']);

/** The gateway's own routes, read from its Express router (nested routers included). */
function gatewayRoutes(): string[] {
  const config = gatewayConfigSchema.parse({ INTERNAL_TOKEN: process.env.INTERNAL_TOKEN!, LOG_LEVEL: 'silent' });
  const gateway = createGateway(config, pino({ level: 'silent' }));
  gateway.close();
  type Layer = { route?: { path: string | string[]; methods: Record<string, boolean> }; handle: { stack?: Layer[] } };
  const walk = (stack: Layer[]): string[] =>
    stack.flatMap((layer) => {
      if (!layer.route) return layer.handle.stack ? walk(layer.handle.stack) : [];
      const { path, methods } = layer.route;
      return [path].flat().flatMap((p) =>
        Object.keys(methods)
          .filter((m) => METHODS.includes(m))
          .map((m) => `${m.toUpperCase()} ${p}`),
      );
    });
  return walk((gateway.app.router as unknown as ExpressRouter & { stack: Layer[] }).stack).filter((r) => !NOT_API.has(r));
}

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema(doc, 'openapi');
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** What is wrong with an answer according to the document, or null. */
function disagreement(route: { method: string; path: string }, answer: ApiAnswer): string | null {
  const operation = operationOf(route);
  if (!operation) return 'not in the document';
  const response = operation.responses[String(answer.status)];
  if (!response)
    return `answered ${answer.status}, which the document does not list: ${JSON.stringify(answer.body).slice(0, 200)}`;
  const missing = Object.entries(response.headers ?? {}).filter(([name, h]) => h.required && !answer.headers.has(name));
  if (missing.length) return `answered ${answer.status} without the header ${missing.map(([name]) => name).join(', ')}`;
  if (!response.content)
    return answer.body === null ? null : `answered ${answer.status} with a body the document does not describe`;
  if (!response.content['application/json']) {
    const type = answer.headers.get('content-type') ?? '';
    const ok = Object.keys(response.content).some((t) => t === '*/*' || type.startsWith(t));
    return ok ? null : `answered ${type}, the document says ${Object.keys(response.content).join(', ')}`;
  }
  const method = route.method.toLowerCase();
  const ref = `openapi#/${pointer('paths', documentPath(route.path), method, 'responses', String(answer.status), 'content', 'application/json', 'schema')}`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (validate(answer.body)) return null;
  return `answered ${answer.status} unlike the document: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(answer.body).slice(0, 300)}`;
}

let portal: Portal;
let routes: DeclaredRoute[];
beforeAll(async () => {
  portal = await startPortal();
  routes = portal.routes().filter((r) => !isInternal(r));
}, 60_000);
afterAll(() => portal?.close());

describe('the OpenAPI document', () => {
  it('names every public route of the five services and of the gateway, and no route that does not exist', () => {
    const declared = new Set([
      ...routes.map((r) => routeKey(r).split(' ').slice(1).join(' ')).map((r) => documentPath(r)),
      ...gatewayRoutes().map(documentPath),
    ]);
    const inDocument = new Set(documented());
    expect([...declared].filter((r) => !inDocument.has(r)).sort()).toEqual([]);
    expect([...inDocument].filter((r) => !declared.has(r)).sort()).toEqual([]);
    expect(inDocument.size).toBeGreaterThan(60);
  });

  it('gives each route the roles the authorization matrix holds it to', () => {
    const named = (roles: readonly string[]) => [...roles].sort().join(',') || 'public';
    const wrong = routes.flatMap((route) => {
      const rule = ROUTE_RULES[routeKey(route)];
      const operation = operationOf(route);
      if (!rule || !operation || rule.access === 'internal') return []; // reported by the tests above and the matrix
      const inDocument = named(operation['x-roles'] ?? []);
      const inMatrix = named(rule.access === 'public' ? [] : rule.access);
      return inDocument === inMatrix ? [] : [`${routeKey(route)}: document ${inDocument}, matrix ${inMatrix}`];
    });
    expect(wrong).toEqual([]);
  });

  it('shows request examples the document itself accepts', () => {
    const wrong: string[] = [];
    let examples = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const json = operation.requestBody?.content['application/json'];
        if (!json || json.example === undefined) continue;
        examples += 1;
        const validate = ajv.compile({
          $ref: `openapi#/${pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema')}`,
        });
        if (!validate(json.example)) wrong.push(`${method.toUpperCase()} ${path}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(examples).toBeGreaterThan(20);
  });

  it('is served by the gateway as JSON, with a readable page whose files come from the gateway itself', async () => {
    const json = await api(portal.gateway.url, 'GET', '/api/openapi.json');
    expect(json.status).toBe(200);
    expect(json.body).toEqual(JSON.parse(JSON.stringify(openApiDocument())));

    const page = await fetch(`${portal.gateway.url}/api/docs`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets).toEqual(expect.arrayContaining(['/api/docs/swagger-ui-bundle.js', '/api/docs/start.js']));
    for (const asset of assets) {
      const file = await fetch(`${portal.gateway.url}${asset}`);
      await file.arrayBuffer();
      expect([asset, file.status]).toEqual([asset, 200]);
    }
    expect((await fetch(`${portal.gateway.url}/api/docs/package.json`)).status).toBe(404);
  });
});

/** The first role the rule lets through, or null when every one is refused (someone else's record). */
const rightfulRole = (rule: RouteRule): Role | null =>
  rule.access === 'public' || rule.access === 'internal'
    ? null
    : (ROLES_IN_ORDER.find((r) => (rule.access as readonly Role[]).includes(r) && !rule.hiddenFrom?.includes(r)) ?? null);

describe('real answers match the document', () => {
  it('for every public route: its success as the rightful caller, 401 without a token and 403 for a wrong role', async () => {
    const problems: string[] = [];
    let checked = 0;
    const check = (route: DeclaredRoute, who: string, answer: ApiAnswer) => {
      checked += 1;
      const problem = disagreement(route, answer);
      if (problem) problems.push(`${routeKey(route)} as ${who}: ${problem}`);
    };
    const callsOf = async (route: DeclaredRoute) => {
      const rule = ROUTE_RULES[routeKey(route)];
      if (!rule) return; // the authorization matrix reports an unclassified route
      const role = rightfulRole(rule);
      const caller: Caller = role ?? (rule.access === 'public' ? 'anonymous' : 'CANDIDATE');
      const request = (await rule.request?.(portal, caller)) ?? {};
      const path = `${fillPath(route.path, request.params)}${request.query ?? ''}`;
      const call = (token?: string) => api(portal.gateway.url, route.method, path, { token, body: request.body });

      // The refusals first: the rightful call may delete what the request names.
      if (rule.access !== 'public') {
        const refused = ROLES_IN_ORDER.find((r) => !(rule.access as readonly Role[]).includes(r));
        const [anonymous, wrongRole] = await Promise.all([call(), refused && call(portal.as[refused].token)]);
        check(route, 'anonymous', anonymous);
        if (refused && wrongRole) check(route, refused, wrongRole);
      }
      const token = request.token ?? (role ? portal.as[role].token : rule.access === 'public' ? undefined : portal.victim.token);
      check(route, role ?? caller, await call(token));
    };
    // A few routes at a time: the fixtures they share (the course-builder job, the other curator) are made once.
    const queue = [...routes];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let route = queue.shift(); route; route = queue.shift()) await callsOf(route);
      }),
    );
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(150);
  }, 60_000);

  it('every versioned write refuses one without its version with 428 in Russian through the gateway, changing nothing', async () => {
    const edits = routes.filter((r) => r.method === 'PATCH' || r.method === 'PUT');
    const versioned = edits.filter((r) => operationOf(r)?.responses['428']).map(routeKey);
    // The matrix's request of an edit carries a version exactly when the document marks the edit versioned.
    const carrying: string[] = [];
    const problems: string[] = [];
    for (const route of edits) {
      const rule = ROUTE_RULES[routeKey(route)];
      const role = rule && rightfulRole(rule);
      if (!rule || !role) continue;
      const request = (await rule.request?.(portal, role)) ?? {};
      const body = request.body as Record<string, unknown> | undefined;
      if (!body || !('version' in body)) continue;
      carrying.push(routeKey(route));
      const path = fillPath(route.path, request.params);
      const token = request.token ?? portal.as[role].token;
      const { version, ...withoutVersion } = body;
      const refused = await api(portal.gateway.url, route.method, path, { token, body: withoutVersion });
      if (refused.status !== 428 || refused.body?.message !== MSG.versionRequired)
        problems.push(`${routeKey(route)}: ${refused.status} ${JSON.stringify(refused.body).slice(0, 160)}`);
      const problem = disagreement(route, refused);
      if (problem) problems.push(`${routeKey(route)} without a version: ${problem}`);
      // The same write based on the version it had is accepted: the refused one changed nothing, not even the version.
      const written = await api(portal.gateway.url, route.method, path, { token, body: { ...withoutVersion, version } });
      if (written.status !== (request.ok ?? 200)) problems.push(`${routeKey(route)} with its version: ${written.status}`);
    }
    expect(carrying.sort()).toEqual(versioned.sort());
    expect(problems).toEqual([]);
    expect(versioned.length).toBeGreaterThanOrEqual(7);
  }, 60_000);

  it('for the gateway’s own routes', async () => {
    const problems: string[] = [];
    for (const [path, token] of [
      ['/api/dashboard/stats', portal.as.ADMIN.token],
      ['/api/dashboard/stats', portal.as.CANDIDATE.token],
      ['/api/dashboard/stats', undefined],
      ['/api/health', undefined],
      ['/healthz', undefined],
      ['/readyz', undefined],
    ] as const) {
      const problem = disagreement({ method: 'GET', path }, await api(portal.gateway.url, 'GET', path, { token }));
      if (problem) problems.push(`GET ${path}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('a client team working from the document alone', () => {
  it('has the client types generated from this document (npm run client-types -w packages/system-tests)', async () => {
    expect(await generatedClientTypes()).toBe(committedClientTypes());
  }, 60_000);

  it('creates a course, a module, a lesson with every block type and a quiz through openapi-fetch, with no cast', async () => {
    const client = createClient<paths>({
      baseUrl: portal.gateway.url,
      headers: { authorization: `Bearer ${portal.as.CURATOR.token}` },
    });
    const course = await client.POST('/api/courses', {
      body: { title: 'Курс внешней команды', description: 'Собран клиентом из документа API' },
    });
    expect(course.response.status).toBe(201);
    const courseId = course.data!.id;
    const quiz = await client.POST('/api/quizzes', {
      body: {
        title: 'Проверка',
        courseId,
        questions: [
          { id: 'q1', type: 'single_choice', question: 'Куда звонить при пожаре?', options: ['101', '103'], correctAnswers: [0] },
        ],
      },
    });
    expect(quiz.response.status).toBe(201);
    const module = await client.POST('/api/blocks', { body: { type: 'MODULE', courseId, title: 'Модуль клиента' } });
    expect(module.response.status).toBe(201);

    const blocks: NonNullable<Extract<BlockCreateBody, { type: 'LESSON' }>['content']> = [
      { type: 'heading', content: { text: 'Заголовок урока', level: 2 } },
      { type: 'text', content: { text: 'Текст урока' } },
      { type: 'image', content: { src: 'https://example.org/schema.png', alt: 'Схема' } },
      { type: 'video', content: { src: 'https://example.org/lecture.mp4', title: 'Лекция' } },
      { type: 'audio', content: { src: 'https://example.org/talk.mp3', title: 'Разговор' } },
      { type: 'file', content: { name: 'Памятка.pdf', size: 0.5, src: 'https://example.org/memo.pdf' } },
      { type: 'quiz', content: { quizId: quiz.data!.id } },
      { type: 'scorm', content: {} },
    ];
    const lesson = await client.POST('/api/blocks', {
      body: { type: 'LESSON', courseId, moduleId: module.data!.id, title: 'Урок клиента', content: blocks },
    });
    expect(lesson.response.status).toBe(201);
    // Every block type of the contracts was sent, and the lesson holds them as sent, in order.
    expect(blocks.map((b) => b.type)).toEqual([...CONTENT_BLOCK_TYPES]);

    const read = await client.GET('/api/blocks/{id}', { params: { path: { id: lesson.data!.id } } });
    expect(read.response.status).toBe(200);
    expect([read.data!.type, read.data!.title, read.data!.courseId]).toEqual(['LESSON', 'Урок клиента', courseId]);
    const outline = await client.GET('/api/courses/{id}/outline', { params: { path: { id: courseId } } });
    expect(outline.data!.modules.map((m) => [m.title, m.lessons.map((l) => l.title)])).toEqual([
      ['Модуль клиента', ['Урок клиента']],
    ]);
    const whole = await client.GET('/api/courses/{id}', { params: { path: { id: courseId } } });
    expect(whole.response.status).toBe(200);
    expect(JSON.stringify(whole.data)).toContain('https://example.org/lecture.mp4');

    // A refusal comes typed too, with its Russian message: what the types cannot stop, the server does.
    const refused = await client.POST('/api/blocks', {
      body: { type: 'LESSON', courseId, moduleId: module.data!.id, title: '   ' },
    });
    expect([refused.response.status, refused.error?.message]).toEqual([400, CONTENT_MSG.titleBlank]);
  }, 60_000);
});
