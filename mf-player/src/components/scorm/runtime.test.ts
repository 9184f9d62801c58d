/** @jest-environment jsdom */
import { TextDecoder, TextEncoder } from 'node:util';
import type { ScormAttemptState } from '@portal/contracts';
import {
  base64UrlJson,
  createScormRuntime,
  isFromFrame,
  packageOriginOf,
  readCommitAnswer,
  resumableCmi,
  scormCommitUrl,
  sequencedCommit,
  type ScormRuntime,
} from './runtime';

// Browsers have them; jsdom does not.
Object.assign(globalThis, { TextEncoder, TextDecoder });

/** jsdom has no fetch Response: what the runtime reads of one. */
const answer = (status: number, body: unknown): Response =>
  ({
    ok: status >= 200 && status < 300,
    status,
    statusText: '',
    url: '',
    text: () => Promise.resolve(JSON.stringify(body)),
    json: () => Promise.resolve(body),
  }) as Response;

const decodeHash = (hash: string): Record<string, unknown> => {
  const b64 = hash
    .replace(/^#cmi=/, '')
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  const binary = atob(b64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
};

const frameWindow = (): Window => {
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  return frame.contentWindow as Window;
};

const attempt = (over: Partial<ScormAttemptState> = {}): ScormAttemptState => ({
  id: 'a1',
  courseId: 'c1',
  lessonId: 'l1',
  packageId: 'p1',
  scoId: 'sco1',
  number: 1,
  entry: 'resume',
  cmi: null,
  sequence: 7,
  completionStatus: 'incomplete',
  successStatus: 'unknown',
  completed: false,
  mayStartNew: false,
  ...over,
});

/** Sends a bridge call as the frame's CrossFrameAPI does and collects what comes back to that window. */
function call(from: Window, method: string, params: unknown[] = []): Promise<unknown> {
  return new Promise((resolve) => {
    const messageId = `m${Math.random()}`;
    const answer = jest.spyOn(from, 'postMessage').mockImplementation((data: unknown) => {
      answer.mockRestore();
      resolve((data as { result?: unknown }).result);
    });
    window.dispatchEvent(new MessageEvent('message', { data: { messageId, method, params }, source: from }));
  });
}

describe('SCORM runtime helpers', () => {
  it('names the frame’s origin only when the launch is on a package origin of its own', () => {
    const portal = 'https://learn.example.ru';
    expect(packageOriginOf('/scorm/t.s/index.html', portal)).toBeUndefined();
    expect(packageOriginOf(`${portal}/scorm/t.s/index.html`, portal)).toBeUndefined();
    expect(packageOriginOf('https://scorm.learn.example.ru/scorm/t.s/__portal__/player.html?sco=a.html', portal)).toBe(
      'https://scorm.learn.example.ru',
    );
  });

  it('encodes the CMI seed as base64url of UTF-8 JSON, Cyrillic included', () => {
    const value = { 'cmi.learner_name': 'Иванова, Анна', 'cmi.suspend_data': '?&/+=' };
    const encoded = base64UrlJson(value);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeHash(`#cmi=${encoded}`)).toEqual(value);
  });

  it('answers only the SCO frame and frames inside it', () => {
    const sco = frameWindow();
    const inner = sco.document.createElement('iframe');
    sco.document.body.appendChild(inner);
    const other = frameWindow();
    expect(isFromFrame(sco, sco)).toBe(true);
    expect(isFromFrame(inner.contentWindow, sco)).toBe(true);
    expect(isFromFrame(other, sco)).toBe(false);
    expect(isFromFrame(window, sco)).toBe(false);
    expect(isFromFrame(null, sco)).toBe(false);
    expect(isFromFrame(sco, null)).toBe(false);
  });

  it('numbers a session’s commits after the sequence the attempt has stored', () => {
    expect(
      sequencedCommit({ commitSequence: 1, runtimeData: {} }, 7, { isTerminateCommit: false, trigger: 'manual', sequence: 1 }),
    ).toEqual({
      commitSequence: 8,
      runtimeData: {},
    });
    expect(sequencedCommit({ commitSequence: 3 }, 0)).toEqual({ commitSequence: 3 });
  });

  it('leaves out of a resumed CMI what belonged to the last session', () => {
    const stored = { cmi: { location: 'p3', exit: 'suspend', entry: 'ab-initio', session_time: 'PT1M', suspend_data: 'x' } };
    expect(resumableCmi(stored)).toEqual({ cmi: { location: 'p3', suspend_data: 'x' } });
    expect(resumableCmi({ cmi: { core: { lesson_location: '2', exit: 'suspend', entry: '' } } })).toEqual({
      cmi: { core: { lesson_location: '2' } },
    });
    expect(stored.cmi.exit).toBe('suspend');
  });

  it('reads the server’s answer: success, or its Russian refusal', async () => {
    await expect(readCommitAnswer(answer(200, { result: true, errorCode: 0 }))).resolves.toEqual({
      result: true,
      errorCode: 0,
    });
    const refused = await readCommitAnswer(answer(404, { message: 'Попытка не найдена' }));
    expect(refused).toMatchObject({ result: false, errorMessage: 'Попытка не найдена' });
    expect(refused.errorCode).not.toBe(0);
  });
});

describe('createScormRuntime', () => {
  let runtime: ScormRuntime | null = null;
  const fetchMock = jest.fn();
  beforeEach(() => {
    fetchMock.mockReset();
    fetchMock.mockResolvedValue(answer(200, { result: true, errorCode: 0 }));
    global.fetch = fetchMock as typeof fetch;
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    runtime?.destroy();
    runtime = null;
    jest.restoreAllMocks();
  });

  it('resumes a SCORM 2004 attempt where it was left: the seed holds the bookmark, the entry and the learner', async () => {
    const sco = frameWindow();
    runtime = await createScormRuntime({
      version: '2004',
      attempt: attempt({ cmi: { cmi: { location: 'page-3', suspend_data: 'viewed=1,2,3', exit: 'suspend' } } }),
      token: 't0k',
      learner: { id: 'u1', name: 'Иванова, Анна' },
      frame: () => sco,
    });
    const seed = decodeHash(runtime.hash);
    expect(seed).toMatchObject({
      'cmi.location': 'page-3',
      'cmi.suspend_data': 'viewed=1,2,3',
      'cmi.entry': 'resume',
      'cmi.learner_id': 'u1',
      'cmi.learner_name': 'Иванова, Анна',
    });
    await expect(call(sco, 'Initialize', [''])).resolves.toBe('true');
    await expect(call(sco, 'GetValue', ['cmi.location'])).resolves.toBe('page-3');
  });

  it('does not answer a window other than the SCO frame', async () => {
    const sco = frameWindow();
    const stranger = frameWindow();
    runtime = await createScormRuntime({ version: '1.2', attempt: attempt(), token: 't', learner: null, frame: () => sco });
    const answered = jest.spyOn(stranger, 'postMessage');
    window.dispatchEvent(
      new MessageEvent('message', { data: { messageId: 'x', method: 'LMSInitialize', params: [''] }, source: stranger }),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(answered).not.toHaveBeenCalled();
    await expect(call(sco, 'LMSInitialize', [''])).resolves.toBe('true');
  });

  it('commits to the attempt with the token and a sequence above the stored one, and reports completion once stored', async () => {
    const sco = frameWindow();
    const onCompleted = jest.fn();
    const onReported = jest.fn();
    runtime = await createScormRuntime({
      version: '2004',
      attempt: attempt({ entry: 'ab-initio' }),
      token: 't0k',
      learner: null,
      frame: () => sco,
      onCompleted,
      onReported,
    });
    await call(sco, 'Initialize', ['']);
    await call(sco, 'SetValue', ['cmi.score.raw', '80']);
    await call(sco, 'SetValue', ['cmi.score.max', '100']);
    await call(sco, 'SetValue', ['cmi.completion_status', 'completed']);
    await call(sco, 'Commit', ['']);
    await new Promise((r) => setTimeout(r, 20));

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(scormCommitUrl('a1'));
    expect(init.headers).toMatchObject({ Authorization: 'Bearer t0k' });
    expect(init.keepalive).toBe(true);
    const body = JSON.parse(init.body as string) as Record<string, unknown>;
    expect(body).toMatchObject({ commitSequence: 8, completionStatus: 'completed', score: { raw: 80, max: 100 } });
    expect(body.runtimeData).toMatchObject({ cmi: { completion_status: 'completed' } });
    expect(onCompleted).toHaveBeenCalledTimes(1);
    expect(onReported).toHaveBeenLastCalledWith({
      completed: true,
      success: 'unknown',
      score: { raw: 80, max: 100, scaled: null },
    });

    await call(sco, 'Commit', ['']);
    await new Promise((r) => setTimeout(r, 20));
    expect(
      (JSON.parse((fetchMock.mock.calls[1] as [string, RequestInit])[1].body as string) as { commitSequence: number })
        .commitSequence,
    ).toBe(9);
    expect(onCompleted).toHaveBeenCalledTimes(1);
  });

  it('marks the terminating commit as final', async () => {
    const sco = frameWindow();
    runtime = await createScormRuntime({ version: '1.2', attempt: attempt(), token: 't', learner: null, frame: () => sco });
    await call(sco, 'LMSInitialize', ['']);
    await call(sco, 'LMSSetValue', ['cmi.core.lesson_status', 'passed']);
    await call(sco, 'LMSFinish', ['']);
    await new Promise((r) => setTimeout(r, 20));
    const urls = fetchMock.mock.calls.map((c) => c[0] as string);
    expect(urls).toContain(`${scormCommitUrl('a1')}?final=true`);
  });

  it('tells the page when the server refuses a commit', async () => {
    fetchMock.mockResolvedValue(answer(404, { message: 'Попытка не найдена' }));
    const sco = frameWindow();
    const onCommitFailed = jest.fn();
    runtime = await createScormRuntime({
      version: '1.2',
      attempt: attempt(),
      token: 't',
      learner: null,
      frame: () => sco,
      onCommitFailed,
    });
    await call(sco, 'LMSInitialize', ['']);
    await call(sco, 'LMSCommit', ['']);
    await new Promise((r) => setTimeout(r, 20));
    expect(onCommitFailed).toHaveBeenCalledWith('Попытка не найдена');
  });

  it('sends nothing in an author’s preview', async () => {
    const sco = frameWindow();
    runtime = await createScormRuntime({ version: '2004', attempt: null, token: 't', learner: null, frame: () => sco });
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    await call(sco, 'Initialize', ['']);
    await call(sco, 'SetValue', ['cmi.completion_status', 'completed']);
    await call(sco, 'Commit', ['']);
    runtime.flush();
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
