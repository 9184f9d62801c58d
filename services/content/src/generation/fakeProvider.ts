import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the fake model. */
export type FakeAnswer =
  { content: string; totalTokens?: number; delayMs?: number } | { status: number; body?: string; delayMs?: number };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    messages?: Array<{ role: string; content: string }>;
    temperature?: number;
    max_tokens?: number;
    response_format?: unknown;
  };
}

export interface FakeProvider {
  /** The OpenAI-compatible base URL (…/v1) to put in AI_BASE_URL. */
  url: string;
  requests: RecordedRequest[];
  /** Queues answers for the next calls, in order; once the script runs out, `fallback` answers. */
  script(...answers: FakeAnswer[]): void;
  fallback: FakeAnswer | null;
  /** Forgets the script and the recorded requests (between tests). */
  reset(): void;
  close(): Promise<void>;
}

/**
 * A small OpenAI-compatible chat completions server on 127.0.0.1 (port 0) for tests: it answers
 * from a script and records every request, so a test can check what the service sent (model, key,
 * prompts, the repair call) without a real model. Used only by tests.
 */
export async function startFakeProvider(): Promise<FakeProvider> {
  const queue: FakeAnswer[] = [];
  const requests: RecordedRequest[] = [];
  const pending = new Set<NodeJS.Timeout>();
  const fake: FakeProvider = {
    url: '',
    requests,
    script: (...answers) => queue.push(...answers),
    fallback: null,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      fake.fallback = null;
    },
    close: async () => {
      pending.forEach((t) => clearTimeout(t));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: RecordedRequest['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
      } catch {
        /* recorded as empty: the test will see it */
      }
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      const answer = queue.shift() ?? fake.fallback ?? { status: 500, body: '{"error":"no scripted answer"}' };
      const send = () => {
        if (res.destroyed) return;
        if ('status' in answer) {
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body ?? '{}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${requests.length}`,
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: 'stop' }],
            ...(answer.totalTokens !== undefined ? { usage: { total_tokens: answer.totalTokens } } : {}),
          }),
        );
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          pending.delete(timer);
          send();
        }, answer.delayMs);
        pending.add(timer);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
