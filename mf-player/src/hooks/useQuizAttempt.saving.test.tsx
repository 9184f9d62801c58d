/** @jest-environment jsdom */
import { act, render, renderHook, screen } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { NEW_QUIZ_DEFAULTS, newQuestion, type Quiz, type SavedAnswers, type StartedAttempt } from '@portal/contracts';
import { lightTheme } from '@portal/ui';
import { PlayerHeader } from '../components/player/PlayerHeader';
import { previewQuizInfo, previewSession } from '../components/preview';
import { ANSWER_SAVE_MSG } from './answerSaver';
import { readDraft, writeDraft } from './useAnswerDraft';
import { useQuizAttempt } from './useQuizAttempt';

const ATTEMPT = '6743a1f0c2b5e80012ab34cd';
const quiz: Quiz = {
  ...NEW_QUIZ_DEFAULTS,
  id: 'quiz',
  description: '',
  courseId: null,
  draws: [],
  version: 0,
  createdAt: '',
  updatedAt: '',
  questions: [newQuestion('true_false', 'a', 0), newQuestion('true_false', 'b', 1)],
  settings: { ...NEW_QUIZ_DEFAULTS.settings, randomizeAnswers: false, randomizeQuestions: false },
};
const source = { kind: 'attempt' as const, quizId: 'quiz', courseId: 'course', lessonId: 'lesson' };

/** The server's answer to starting: a resumed attempt, with what it saved when given. */
const started = (savedAnswers?: SavedAnswers): StartedAttempt => ({
  attempt: { id: ATTEMPT, attemptNumber: 1 } as StartedAttempt['attempt'],
  quiz: previewQuizInfo(quiz),
  questions: previewSession(quiz).questions,
  deadline: null,
  serverNow: new Date().toISOString(),
  resumed: true,
  ...(savedAnswers ? { savedAnswers } : {}),
});

const reply = (status: number, body: unknown) =>
  ({
    ok: status < 400,
    status,
    headers: { get: (name: string) => (name === 'content-type' ? 'application/json' : null) },
    json: async () => body,
    text: async () => JSON.stringify(body),
  }) as unknown as Response;

/** The saves the player sent, and how the next one is answered: a status, or no connection at all. */
let saves: Array<{ answers: Array<{ questionId: string; answer: unknown }>; keepalive: boolean }>;
let nextSave: () => Response | 'offline';
let startAnswer: StartedAttempt;

beforeEach(() => {
  jest.useFakeTimers();
  sessionStorage.clear();
  saves = [];
  nextSave = () => reply(200, { savedAt: new Date().toISOString() });
  startAnswer = started();
  global.fetch = jest.fn(async (url: string, init?: RequestInit) => {
    if (init?.method === 'PUT' && url.endsWith(`/attempts/${ATTEMPT}/answers`)) {
      saves.push({ ...(JSON.parse(String(init.body)) as (typeof saves)[number]), keepalive: !!init.keepalive });
      const answer = nextSave();
      if (answer === 'offline') throw new TypeError('Failed to fetch');
      return answer;
    }
    if (init?.method === 'POST' && url.endsWith('/attempts')) return reply(200, startAnswer);
    return reply(404, { message: 'Не найдено' });
  }) as unknown as typeof fetch;
});
afterEach(() => jest.useRealTimers());

/** Lets the timers run `ms` and every answer that came meanwhile be taken. */
const wait = (ms: number) =>
  act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });

async function openPlayer() {
  const view = renderHook(() => useQuizAttempt(source, {}));
  await wait(0);
  expect(view.result.current.phase).toBe('playing');
  return view.result;
}

describe('the player saves the answers on the server as the learner goes', () => {
  it('sends them once the learner pauses for about 1.5 s, the last of quick changes only', async () => {
    const player = await openPlayer();
    act(() => player.current.answer('a', 'true'));
    await wait(1000);
    act(() => player.current.answer('a', 'false'));
    await wait(1000);
    expect(saves).toHaveLength(0);

    await wait(600);

    expect(saves).toHaveLength(1);
    expect(saves[0].answers).toEqual([
      { questionId: 'a', answer: 'false', timeSpent: 0 },
      { questionId: 'b', answer: null, timeSpent: 0 },
    ]);
    expect(player.current.saveState).toBe('saved');
  });

  it('sends them at once when the learner moves to another question or the page is hidden', async () => {
    const player = await openPlayer();
    act(() => player.current.answer('a', 'true'));
    act(() => player.current.goTo(1));
    await wait(0);
    expect(saves).toHaveLength(1);

    act(() => player.current.answer('b', 'true'));
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await wait(0);
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });

    expect(saves).toHaveLength(2);
    expect(saves[1]).toMatchObject({ keepalive: true, answers: [{ answer: 'true' }, { answer: 'true' }] });
  });

  it('without a connection says so calmly, keeps the answers in the tab, retries with growing pauses, and never blocks answering', async () => {
    nextSave = () => 'offline';
    const player = await openPlayer();
    act(() => player.current.answer('a', 'true'));
    await wait(1500);
    expect(saves).toHaveLength(1);
    expect(player.current.saveState).toBe('offline');
    expect(readDraft(ATTEMPT).answers).toEqual({ a: 'true' });

    act(() => player.current.answer('b', 'false'));
    expect(player.current.answers).toEqual({ a: 'true', b: 'false' });
    await wait(2000);
    expect(saves).toHaveLength(2);
    await wait(3000);
    expect(saves).toHaveLength(2); // the next pause is 4 s
    expect(player.current.saveState).toBe('offline');

    nextSave = () => reply(200, { savedAt: new Date().toISOString() });
    await wait(1000);

    expect(saves).toHaveLength(3);
    expect(saves[2].answers.map((a) => a.answer)).toEqual(['true', 'false']);
    expect(player.current.saveState).toBe('saved');
    expect(readDraft(ATTEMPT).answers).toEqual({ a: 'true', b: 'false' });
  });

  it('tries again at once when the connection comes back', async () => {
    nextSave = () => 'offline';
    const player = await openPlayer();
    act(() => player.current.answer('a', 'true'));
    await wait(1500);
    nextSave = () => reply(200, { savedAt: new Date().toISOString() });
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await wait(0);
    expect(saves).toHaveLength(2);
    expect(player.current.saveState).toBe('saved');
  });

  it('stops quietly when the server says the attempt is closed (409)', async () => {
    nextSave = () => reply(409, { message: 'Попытка уже завершена: ответы больше не сохраняются' });
    const player = await openPlayer();
    act(() => player.current.answer('a', 'true'));
    await wait(1500);
    act(() => player.current.answer('a', 'false'));
    await wait(60_000);
    expect(saves).toHaveLength(1);
    expect(player.current.saveState).toBe('idle');
    expect(player.current.error).toBeNull();
  });
});

describe('resuming: the newer of this tab’s draft and the server’s saved answers wins', () => {
  it('takes the server’s answers when they are newer (saved on another device)', async () => {
    writeDraft(ATTEMPT, { answers: { a: 'false' }, timeSpent: { a: 3 }, updatedAt: Date.now() - 60_000 });
    startAnswer = started({
      answers: [
        { questionId: 'a', answer: 'true', timeSpent: 7 },
        { questionId: 'b', answer: null, timeSpent: 0 },
      ],
      savedAt: new Date(Date.now() - 1000).toISOString(),
    });
    const player = await openPlayer();
    expect(player.current.answers).toEqual({ a: 'true' });
    await wait(5000);
    expect(saves).toHaveLength(0); // nothing the server lacks
  });

  it('keeps this tab’s draft when it is newer, and sends it at once', async () => {
    writeDraft(ATTEMPT, { answers: { a: 'false', b: 'true' }, timeSpent: {}, updatedAt: Date.now() - 1000 });
    startAnswer = started({
      answers: [{ questionId: 'a', answer: 'true', timeSpent: 7 }],
      savedAt: new Date(Date.now() - 60_000).toISOString(),
    });
    const player = await openPlayer();
    expect(player.current.answers).toEqual({ a: 'false', b: 'true' });
    await wait(0);
    expect(saves).toHaveLength(1);
    expect(saves[0].answers.map((a) => a.answer)).toEqual(['false', 'true']);
  });

  it('a draft from before drafts were dated loses to any answers the server saved', async () => {
    writeDraft(ATTEMPT, { answers: { a: 'false' }, timeSpent: {} });
    startAnswer = started({ answers: [{ questionId: 'b', answer: 'true', timeSpent: 1 }], savedAt: new Date().toISOString() });
    const player = await openPlayer();
    expect(player.current.answers).toEqual({ b: 'true' });
  });
});

describe('the header says how the saving goes', () => {
  it.each([
    ['saving', ANSWER_SAVE_MSG.saving, 'Сохраняем…'],
    ['saved', ANSWER_SAVE_MSG.saved, 'Ответы сохранены'],
    ['offline', ANSWER_SAVE_MSG.offline, 'Нет связи: ответы сохранены на этом устройстве, отправим, когда связь вернётся'],
  ] as const)('%s: «%s»', (state, message, text) => {
    expect(message).toBe(text);
    render(
      <ThemeProvider theme={lightTheme}>
        <PlayerHeader
          title="Итоговый тест"
          preview={false}
          secondsLeft={null}
          onClose={null}
          closeDisabled={false}
          saveState={state}
        />
      </ThemeProvider>,
    );
    expect(screen.getByText(text).getAttribute('aria-live')).toBe('polite');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says nothing before the first change', () => {
    render(
      <ThemeProvider theme={lightTheme}>
        <PlayerHeader title="Итоговый тест" preview={false} secondsLeft={null} onClose={null} closeDisabled={false} />
      </ThemeProvider>,
    );
    expect(screen.queryByText(/сохран/i)).toBeNull();
  });
});
