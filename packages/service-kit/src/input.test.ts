import { request } from 'node:http';
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import Router from '@koa/router';
import { Schema } from 'mongoose';
import { z } from 'zod';
import { MSG, PAGING_MSG, pagingFields } from '@portal/contracts';
import { api, startTestService, type ApiAnswer, type TestService } from '@portal/devstack/testing';
import { escapeRegExp } from './mongo';
import { parse } from './validate';

// A service with routes that read every kind of input straight into the store, as real routes do.
let service: TestService;
const notes = (ctx: TestService['ctx']) =>
  ctx.store.models.Note ??
  ctx.store.model(
    'Note',
    // Limits a route's zod schema would normally check first: here the model is the only check.
    new Schema({
      text: { type: String, maxlength: 40 },
      tags: [String],
      extra: Schema.Types.Mixed,
      stars: { type: Number, min: 0, max: 5 },
      kind: { type: String, enum: ['a', 'b'] },
      due: Date,
    }),
  );

beforeAll(async () => {
  service = await startTestService('content', (ctx) => {
    const router = new Router({ prefix: '/api/notes' });
    router.get('/', async (koa) => {
      const search = String(koa.query.search ?? '');
      koa.body = await notes(ctx)
        .find(search ? { text: new RegExp(escapeRegExp(search), 'i') } : {})
        .lean();
    });
    router.get('/:text', async (koa) => {
      koa.body = { count: await notes(ctx).countDocuments({ text: koa.params.text }) };
    });
    router.post('/', async (koa) => {
      const created = await notes(ctx).create(koa.request.body as object);
      koa.status = 201;
      koa.body = { id: String(created._id) };
    });
    router.get('/paged/list', (koa) => {
      koa.body = parse(z.object(pagingFields(20)), koa.query);
    });
    router.post('/:id/star', async (koa) => {
      koa.body = { starred: koa.params.id };
    });
    return [router];
  });
});
afterAll(() => service.close());

const stored = async () => (await notes(service.ctx).find().lean()).map((n) => n.text);

/** Sends raw bytes with the given headers (fetch would refuse to send some of these on our behalf). */
function raw(path: string, method: string, headers: Record<string, string>, body?: Buffer | string): Promise<ApiAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${service.url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null, headers: new Headers() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const refusedAs = (status: number, message: string) => ({ status, body: { message, statusCode: status } });
const answerOf = ({ status, body }: ApiAnswer) => ({ status, body });

describe('text the store cannot keep as sent is refused with 400 before the route runs', () => {
  it('a NUL byte in a query parameter, a path parameter or a query key', async () => {
    for (const path of ['/api/notes?search=%00', '/api/notes?search=a%00b', '/api/notes?se%00arch=a', '/api/notes/ab%00c']) {
      expect({ path, ...answerOf(await api(service.url, 'GET', path)) }).toEqual({
        path,
        ...refusedAs(400, MSG.badCharacters),
      });
    }
  });

  it('percent-encoding that is not UTF-8 text in the path (an encoded lone surrogate, a broken escape)', async () => {
    for (const path of ['/api/notes/%ED%A0%80', '/api/notes/%E0%A4%A', '/api/notes/x/star%FF', '/api/notes?search=%ED%A0%80']) {
      expect({ path, ...answerOf(await api(service.url, 'GET', path)) }).toEqual({ path, ...refusedAs(400, MSG.badCharacters) });
    }
  });

  it('a NUL or a lone surrogate in any string or key of a JSON body, however deep; nothing is stored', async () => {
    const bodies = [
      '{"text":"a\\u0000b"}',
      '{"text":"\\ud800"}',
      '{"text":"ok","tags":["x","\\udc00y"]}',
      '{"text":"ok","extra":{"deep":[{"k\\u0000ey":1}]}}',
      '{"text":"ok","extra":{"a":{"b":{"c":"\\ud83d"}}}}',
    ];
    for (const body of bodies) {
      expect({ sent: body, ...answerOf(await api(service.url, 'POST', '/api/notes', { body })) }).toEqual({
        sent: body,
        ...refusedAs(400, MSG.badCharacters),
      });
    }
    expect(await stored()).toEqual([]);
  });

  it('keeps well-formed text whole: Cyrillic, an emoji (a surrogate pair), a search for it', async () => {
    const text = 'Охрана труда 🚧 «2025»';
    expect((await api(service.url, 'POST', '/api/notes', { body: { text } })).status).toBe(201);
    const found = await api(service.url, 'GET', `/api/notes?search=${encodeURIComponent('труда 🚧')}`);
    expect(found.body.map((n: { text: string }) => n.text)).toEqual([text]);
    expect((await api(service.url, 'GET', `/api/notes/${encodeURIComponent(text)}`)).body).toEqual({ count: 1 });
    await notes(service.ctx).deleteMany({});
  });
});

describe('bodies the service cannot read are refused, never a 500', () => {
  it('truncated JSON and a JSON scalar are 400', async () => {
    for (const body of ['{"text": "a', '{"text": }', '"text"']) {
      expect({ sent: body, ...answerOf(await api(service.url, 'POST', '/api/notes', { body })) }).toEqual({
        sent: body,
        ...refusedAs(400, MSG.badJson),
      });
    }
  });

  it('JSON nested deeper than any document of the portal is 400, and so is one nested past the stack', async () => {
    for (const depth of [100, 200_000]) {
      const body = `{"text":"x","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      expect({ depth, ...answerOf(await api(service.url, 'POST', '/api/notes', { body })) }).toEqual({
        depth,
        ...refusedAs(400, MSG.badJson),
      });
    }
    const shallow = `{"text":"x","extra":${'{"a":'.repeat(20)}1${'}'.repeat(20)}}`;
    expect((await api(service.url, 'POST', '/api/notes', { body: shallow })).status).toBe(201);
    await notes(service.ctx).deleteMany({});
  });

  it('a body marked gzip that is not gzip is 400; an unknown encoding is 415; real gzip is read', async () => {
    const json = { 'content-type': 'application/json' };
    expect(answerOf(await raw('/api/notes', 'POST', { ...json, 'content-encoding': 'gzip' }, '{"text":"plain"}'))).toEqual(
      refusedAs(400, MSG.badBodyEncoding),
    );
    const truncated = gzipSync('{"text":"cut short"}').subarray(0, 12);
    expect(answerOf(await raw('/api/notes', 'POST', { ...json, 'content-encoding': 'gzip' }, truncated))).toEqual(
      refusedAs(400, MSG.badBodyEncoding),
    );
    expect(answerOf(await raw('/api/notes', 'POST', { ...json, 'content-encoding': 'zstd-x' }, '{"text":"a"}'))).toEqual(
      refusedAs(415, MSG.unsupportedBodyEncoding),
    );
    expect(await stored()).toEqual([]);
    const zipped = await raw('/api/notes', 'POST', { ...json, 'content-encoding': 'gzip' }, gzipSync('{"text":"сжато"}'));
    expect(zipped.status).toBe(201);
    expect(await stored()).toEqual(['сжато']);
    await notes(service.ctx).deleteMany({});
  });

  it('a body marked deflate or br that is not so is 400; real deflate and br are read', async () => {
    const json = { 'content-type': 'application/json' };
    for (const encoding of ['deflate', 'br']) {
      const answer = await raw('/api/notes', 'POST', { ...json, 'content-encoding': encoding }, '{"text":"plain"}');
      expect({ encoding, ...answerOf(answer) }).toEqual({ encoding, ...refusedAs(400, MSG.badBodyEncoding) });
    }
    expect(await stored()).toEqual([]);
    const packed = [deflateSync('{"text":"deflate"}'), brotliCompressSync('{"text":"br"}')];
    expect((await raw('/api/notes', 'POST', { ...json, 'content-encoding': 'deflate' }, packed[0])).status).toBe(201);
    expect((await raw('/api/notes', 'POST', { ...json, 'content-encoding': 'br' }, packed[1])).status).toBe(201);
    expect((await stored()).sort()).toEqual(['br', 'deflate']);
    await notes(service.ctx).deleteMany({});
  });

  it('a body of a type no route reads is 415; an empty POST is still served', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const answer = await raw('/api/notes', 'POST', { 'content-type': type }, 'text=a');
      expect({ type, ...answerOf(answer) }).toEqual({ type, ...refusedAs(415, MSG.jsonOnly) });
    }
    expect(answerOf(await raw('/api/notes', 'POST', {}, 'text=a'))).toEqual(refusedAs(415, MSG.jsonOnly));
    expect(await stored()).toEqual([]);
    // fetch sends `Content-Length: 0` and no type for a POST without a body.
    expect(answerOf(await api(service.url, 'POST', '/api/notes/abc/star'))).toEqual({ status: 200, body: { starred: 'abc' } });
  });
});

describe("the model's own checks answer in Russian, never in mongoose's English", () => {
  it('a length, a range, an enum and a type the model refuses are 400 with a Russian message naming the field', async () => {
    const cases: Array<[object, string, string]> = [
      [{ text: 'я'.repeat(41) }, 'text', 'Поле «text» слишком длинное: не более 40 символов'],
      [{ stars: 6 }, 'stars', 'Поле «stars» слишком большое: не более 5'],
      [{ stars: -1 }, 'stars', 'Поле «stars» слишком маленькое: не менее 0'],
      [{ kind: 'c' }, 'kind', 'Поле «kind» заполнено неверно'],
      [{ stars: 'много' }, 'stars', 'Поле «stars» имеет неверный тип'],
      [{ due: 'никогда' }, 'due', 'Поле «due» имеет неверный тип'],
    ];
    for (const [body, field, message] of cases) {
      expect({ sent: body, ...answerOf(await api(service.url, 'POST', '/api/notes', { body })) }).toEqual({
        sent: body,
        status: 400,
        body: { message, statusCode: 400, field },
      });
    }
    expect(await stored()).toEqual([]);
  });
});

/** Writes bytes on a bare socket and reads the whole answer: for requests no HTTP client would send. */
function rawSocket(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(service.url).port), '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const jsonOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe("requests node's HTTP parser refuses get a Russian answer too", () => {
  it('a URL over the header size limit is 431 with a Russian message, and the service serves the next request', async () => {
    const answer = await api(service.url, 'GET', `/api/notes?search=${'%D1%8B'.repeat(5000)}`);
    expect(answerOf(answer)).toEqual(refusedAs(431, MSG.headersTooLarge));
    expect((await api(service.url, 'GET', '/api/notes')).status).toBe(200);
  });

  it('a broken request line or header is 400 with a Russian message', async () => {
    for (const text of ['GET /api/notes HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 'ПРИВЕТ / HTTP/1.1\r\n\r\n']) {
      const answer = await rawSocket(text);
      expect({ text, line: answer.split('\r\n')[0], body: jsonOf(answer) }).toEqual({
        text,
        line: 'HTTP/1.1 400 Bad Request',
        body: { message: MSG.malformedRequest, statusCode: 400 },
      });
    }
  });
});

describe('a method a route does not answer', () => {
  it('is 405 in Russian with the methods it does answer, for a known method and an unknown one alike', async () => {
    for (const method of ['PUT', 'DELETE', 'PROPFIND', 'MKCOL']) {
      const answer = await api(service.url, method, '/api/notes');
      expect({ method, ...answerOf(answer), allow: answer.headers.get('allow') }).toEqual({
        method,
        ...refusedAs(405, MSG.methodNotAllowed),
        allow: expect.stringContaining('POST'),
      });
    }
  });
});

describe('numbers out of range in a query are 400 in Russian', () => {
  it('a page or a limit that is huge, negative, fractional, not a number or past the safe integers', async () => {
    const limit = PAGING_MSG.limitInvalid.replace('{max}', '100');
    const cases: Array<[string, string]> = [
      ['page=1e308', PAGING_MSG.pageInvalid],
      ['page=99999999999999999999999', PAGING_MSG.pageInvalid],
      ['page=NaN', PAGING_MSG.pageInvalid],
      ['page=Infinity', PAGING_MSG.pageInvalid],
      ['page=-1', PAGING_MSG.pageInvalid],
      ['page=1.5', PAGING_MSG.pageInvalid],
      ['page=%00', MSG.badCharacters],
      ['limit=-1', limit],
      ['limit=0', limit],
      ['limit=1e308', limit],
      ['limit=9007199254740993', limit],
      ['limit=abc', limit],
    ];
    for (const [query, message] of cases) {
      const answer = await api(service.url, 'GET', `/api/notes/paged/list?${query}`);
      expect({ query, status: answer.status, message: answer.body?.message }).toEqual({ query, status: 400, message });
    }
    expect((await api(service.url, 'GET', '/api/notes/paged/list?page=2&limit=100')).body).toEqual({ page: 2, limit: 100 });
  });
});
