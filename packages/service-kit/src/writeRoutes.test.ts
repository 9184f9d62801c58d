import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { MSG } from '@portal/contracts';
import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { forbidden } from './errors';
import { writeRoutes } from './writeRoutes';

// A resource kept in memory: what matters here is what each route hands its command and answers.
interface Note {
  id: string;
  text: string;
}
const notes = new Map<string, Note>();
const calls: unknown[][] = [];
const noteSchema = z.object({ text: z.string().min(1, 'Введите текст') }).strict();

const onlyWriters = async (ctx: Context, next: Next) => {
  if (ctx.get('x-writer') !== 'yes') throw forbidden();
  await next();
};

let service: TestService;
beforeAll(async () => {
  service = await startTestService('content', () => {
    const router = new Router({ prefix: '/api/notes' });
    writeRoutes(router, [onlyWriters], (ctx) => ({ writer: ctx.get('x-writer') }), {
      create: {
        schema: noteSchema,
        run: async (deps, input) => {
          calls.push(['create', deps, input]);
          const note = { id: String(notes.size + 1), ...input };
          notes.set(note.id, note);
          return note;
        },
        present: (note) => ({ ...note, presented: 'created' }),
      },
      update: {
        schema: noteSchema.partial(),
        run: async (deps, id, input, expected) => {
          calls.push(['update', deps, id, input, expected]);
          const note = { ...notes.get(id)!, ...input };
          notes.set(id, note);
          return note;
        },
        present: (note) => ({ ...note, presented: 'updated' }),
      },
      remove: async (deps, id) => {
        calls.push(['remove', deps, id]);
        notes.delete(id);
      },
    });
    return [router];
  });
});
afterAll(() => service.close());
beforeEach(() => {
  calls.length = 0;
});

const writer = { 'x-writer': 'yes' };

describe('writeRoutes', () => {
  it('creates from the parsed body: 201 with the document presented', async () => {
    const created = await api(service.url, 'POST', '/api/notes', { headers: writer, body: { text: 'первая' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: '1', text: 'первая', presented: 'created' });
    expect(calls).toEqual([['create', { writer: 'yes' }, { text: 'первая' }]]);
  });

  it('updates under the versions the request names, taken out of the body before it is parsed', async () => {
    const byHeader = await api(service.url, 'PATCH', '/api/notes/1', {
      headers: { ...writer, 'If-Match': '"3"' },
      body: { text: 'вторая' },
    });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body).toEqual({ id: '1', text: 'вторая', presented: 'updated' });
    // A strict schema would refuse `version`: it is gone before the body is parsed.
    const byBody = await api(service.url, 'PATCH', '/api/notes/1', { headers: writer, body: { text: 'третья', version: 4 } });
    expect(byBody.status).toBe(200);
    expect(calls).toEqual([
      ['update', { writer: 'yes' }, '1', { text: 'вторая' }, [3]],
      ['update', { writer: 'yes' }, '1', { text: 'третья' }, [4]],
    ]);
  });

  it('deletes: 204 and nothing in the body', async () => {
    const deleted = await api(service.url, 'DELETE', '/api/notes/1', { headers: writer });
    expect(deleted.status).toBe(204);
    expect(calls).toEqual([['remove', { writer: 'yes' }, '1']]);
    expect(notes.has('1')).toBe(false);
  });

  it('runs the guards first and refuses a bad body with 400 naming the field, before any command', async () => {
    const refused = await api(service.url, 'POST', '/api/notes', { body: { text: 'без права' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: MSG.forbidden, statusCode: 403 });
    expect((await api(service.url, 'DELETE', '/api/notes/2')).status).toBe(403);
    const bad = await api(service.url, 'POST', '/api/notes', { headers: writer, body: { text: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: 'Введите текст', statusCode: 400, field: 'text' });
    expect(calls).toEqual([]);
  });
});
