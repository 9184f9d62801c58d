import { AUTOSAVE_TIMING, EDITOR_MSG, MSG } from '@portal/contracts';
import { ApiError } from '@portal/web-core';
import { Autosaver, combineStatuses, type AutosaveStatus } from './autosave';
import { courseAutosave, lessonAutosave, type CourseDraft, type LessonDraft } from './savers';

/** A save function that records calls and answers as told: ok (echoing an id), fail, or hang until released. */
function fakeServer<T extends { id?: string }>() {
  const calls: Array<{ doc: T; at: number }> = [];
  let mode: 'ok' | 'fail' | 'noId' | 'nothing' = 'ok';
  let inFlight = 0;
  let maxInFlight = 0;
  const pending: Array<() => void> = [];
  let hold = false;
  const save = async (doc: T) => {
    calls.push({ doc, at: Date.now() });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (hold) await new Promise<void>((resolve) => pending.push(resolve));
      if (mode === 'fail') throw new Error('Нет связи с сервером. Проверьте подключение');
      if (mode === 'nothing') return null;
      return mode === 'noId' ? { ok: true } : { id: doc.id ?? 'x' };
    } finally {
      inFlight--;
    }
  };
  return {
    save,
    calls,
    set mode(m: typeof mode) {
      mode = m;
    },
    set hold(h: boolean) {
      hold = h;
    },
    release: () => pending.splice(0).forEach((resolve) => resolve()),
    get maxInFlight() {
      return maxInFlight;
    },
  };
}

const lesson = (patch: Partial<LessonDraft> = {}): LessonDraft => ({
  id: 'l1',
  title: 'урок_1',
  description: '',
  status: 'draft',
  blocks: [],
  ...patch,
});
const course = (patch: Partial<CourseDraft> = {}): CourseDraft => ({
  id: 'c1',
  title: 'Курс',
  description: '',
  price: 0,
  duration: 0,
  level: 'Начальный',
  status: 'draft',
  ...patch,
});
const states = <T>(saver: Autosaver<T>) => {
  const seen: AutosaveStatus['state'][] = [];
  saver.subscribe(() => seen.push(saver.getStatus().state));
  return seen;
};

beforeEach(() => {
  jest.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
});
afterEach(() => {
  jest.useRealTimers();
});

describe('the autosave delay', () => {
  it('saves a lesson 2000 ms after the last change, with the newest content, once', async () => {
    const server = fakeServer<LessonDraft>();
    const saver = new Autosaver(lesson(), lessonAutosave(server.save));
    saver.change(lesson({ title: 'а' }));
    await jest.advanceTimersByTimeAsync(1500);
    saver.change(lesson({ title: 'аб' }));
    await jest.advanceTimersByTimeAsync(1999);
    expect(server.calls).toHaveLength(0);
    expect(saver.getStatus()).toEqual({ state: 'idle' });
    await jest.advanceTimersByTimeAsync(1);
    expect(server.calls.map((c) => c.doc.title)).toEqual(['аб']);
    expect(saver.getStatus()).toEqual({ state: 'saved', savedAt: new Date('2026-11-22T10:00:03.500Z').getTime() });
    await jest.runAllTimersAsync();
    expect(server.calls).toHaveLength(1);
    expect(saver.isDirty()).toBe(false);
  });

  it('saves a course after 1000 ms, and anything else after the default 1000 ms', async () => {
    const server = fakeServer<CourseDraft>();
    const saver = new Autosaver(course(), courseAutosave(server.save));
    saver.change(course({ title: 'Новое' }));
    await jest.advanceTimersByTimeAsync(999);
    expect(server.calls).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(server.calls).toHaveLength(1);

    const plain = fakeServer<{ id: string; v: number }>();
    const other = new Autosaver({ id: 'x', v: 0 }, { save: plain.save });
    other.change({ id: 'x', v: 1 });
    await jest.advanceTimersByTimeAsync(AUTOSAVE_TIMING.default.delay - 1);
    expect(plain.calls).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(plain.calls).toHaveLength(1);
  });

  it('does not save on the first render: the starting content is taken as stored', async () => {
    const server = fakeServer<LessonDraft>();
    const saver = new Autosaver(lesson(), lessonAutosave(server.save));
    const seen = states(saver);
    saver.change(lesson()); // what the hook does on the first render
    await jest.runAllTimersAsync();
    expect(server.calls).toHaveLength(0);
    expect(seen).toEqual([]);
    expect(saver.getStatus()).toEqual({ state: 'idle' });
  });

  it('drops a pending save when the content goes back to what is stored', async () => {
    const server = fakeServer<LessonDraft>();
    const saver = new Autosaver(lesson(), lessonAutosave(server.save));
    saver.change(lesson({ title: 'другое' }));
    await jest.advanceTimersByTimeAsync(1000);
    saver.change(lesson());
    await jest.runAllTimersAsync();
    expect(server.calls).toHaveLength(0);
  });
});

describe('failures and retries', () => {
  it('retries a lesson 2 times, 2000 ms apart, shows the error, then returns to idle after 5000 ms', async () => {
    const server = fakeServer<LessonDraft>();
    server.mode = 'fail';
    const saver = new Autosaver(lesson(), lessonAutosave(server.save));
    const seen = states(saver);
    saver.change(lesson({ title: 'x' }));
    await jest.advanceTimersByTimeAsync(2000);
    expect(server.calls).toHaveLength(1);
    expect(saver.getStatus().state).toBe('saving');
    await jest.advanceTimersByTimeAsync(1999);
    expect(server.calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(server.calls).toHaveLength(2);
    expect(saver.getStatus().state).toBe('saving');
    await jest.advanceTimersByTimeAsync(2000);
    expect(server.calls.map((c) => c.at - server.calls[0].at)).toEqual([0, 2000, 4000]);
    expect(saver.getStatus()).toEqual({ state: 'error', message: 'Нет связи с сервером. Проверьте подключение' });
    await jest.advanceTimersByTimeAsync(4999);
    expect(saver.getStatus().state).toBe('error');
    await jest.advanceTimersByTimeAsync(1);
    expect(saver.getStatus()).toEqual({ state: 'idle' });
    await jest.runAllTimersAsync();
    expect(server.calls).toHaveLength(3);
    expect(seen).toEqual(['saving', 'saving', 'saving', 'error', 'idle']);
    expect(saver.isDirty()).toBe(true);
  });

  it('never retries a save another author made stale (412): the error shows at once and the edit stays unsaved', async () => {
    const calls: LessonDraft[] = [];
    const saver = new Autosaver(
      lesson(),
      lessonAutosave(async (doc) => {
        calls.push(doc);
        throw new ApiError(MSG.staleDocument, 412);
      }),
    );
    saver.change(lesson({ title: 'моя правка' }));
    await jest.advanceTimersByTimeAsync(2000);
    expect(saver.getStatus()).toEqual({ state: 'error', message: MSG.staleDocument });
    await jest.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(1);
    expect(saver.isDirty()).toBe(true);
  });

  it('retries a course 2 times 1500 ms apart, and anything else 3 times 1000 ms apart', async () => {
    const server = fakeServer<CourseDraft>();
    server.mode = 'fail';
    const saver = new Autosaver(course(), courseAutosave(server.save));
    saver.change(course({ title: 'x' }));
    await jest.runAllTimersAsync();
    expect(server.calls.map((c) => c.at - server.calls[0].at)).toEqual([0, 1500, 3000]);

    const plain = fakeServer<{ id: string; v: number }>();
    plain.mode = 'fail';
    const other = new Autosaver({ id: 'x', v: 0 }, { save: plain.save });
    other.change({ id: 'x', v: 1 });
    await jest.runAllTimersAsync();
    expect(plain.calls.map((c) => c.at - plain.calls[0].at)).toEqual([0, 1000, 2000, 3000]);
    expect(other.getStatus().state).toBe('idle');
  });

  it('never sends a course with a negative price or duration, and says why', async () => {
    const server = fakeServer<CourseDraft>();
    const saver = new Autosaver(course(), courseAutosave(server.save));
    saver.change(course({ price: -1 }));
    await jest.advanceTimersByTimeAsync(1000);
    expect(saver.getStatus()).toEqual({ state: 'error', message: 'Цена не может быть меньше 0' });
    saver.change(course({ price: 1500, duration: -2 }));
    await jest.advanceTimersByTimeAsync(1000);
    expect(saver.getStatus()).toEqual({ state: 'error', message: 'Длительность не может быть меньше 0' });
    saver.change(course({ price: 1500, duration: 12, level: 'Средний' }));
    await jest.runAllTimersAsync();
    expect(server.calls.map((c) => c.doc)).toEqual([course({ price: 1500, duration: 12, level: 'Средний' })]);
  });

  it('succeeds on a retry, with whatever is newest by then', async () => {
    const server = fakeServer<LessonDraft>();
    server.mode = 'fail';
    const saver = new Autosaver(lesson(), lessonAutosave(server.save));
    saver.change(lesson({ title: 'первый' }));
    await jest.advanceTimersByTimeAsync(2000);
    server.mode = 'ok';
    await jest.advanceTimersByTimeAsync(2000);
    expect(server.calls.map((c) => c.doc.title)).toEqual(['первый', 'первый']);
    expect(saver.getStatus().state).toBe('saved');
    expect(saver.isDirty()).toBe(false);
  });

  it('treats an answer without an id, or no answer, as a failure with the spec texts', async () => {
    const server = fakeServer<LessonDraft>();
    server.mode = 'noId';
    const saver = new Autosaver(lesson(), lessonAutosave(server.save));
    saver.change(lesson({ title: 'x' }));
    await jest.advanceTimersByTimeAsync(2000 + 2000 + 2000);
    expect(server.calls).toHaveLength(3);
    expect(saver.getStatus()).toEqual({ state: 'error', message: EDITOR_MSG.lessonNotConfirmed });

    const courseServer = fakeServer<CourseDraft>();
    courseServer.mode = 'noId';
    const courseSaver = new Autosaver(course(), courseAutosave(courseServer.save));
    courseSaver.change(course({ title: 'x' }));
    await jest.advanceTimersByTimeAsync(1000 + 1500 + 1500);
    expect(courseSaver.getStatus()).toEqual({ state: 'error', message: EDITOR_MSG.courseNotConfirmed });

    const silent = fakeServer<LessonDraft>();
    silent.mode = 'nothing';
    const silentSaver = new Autosaver(lesson(), lessonAutosave(silent.save));
    silentSaver.change(lesson({ title: 'x' }));
    await jest.advanceTimersByTimeAsync(6000);
    expect(silentSaver.getStatus()).toEqual({ state: 'error', message: 'Сохранение не удалось - нет ответа от сервера' });
  });

  it('refuses to save a lesson or a course without an id or a title, without calling the server or retrying', async () => {
    const server = fakeServer<LessonDraft>();
    const saver = new Autosaver(lesson(), lessonAutosave(server.save));
    saver.change(lesson({ title: '   ' }));
    await jest.advanceTimersByTimeAsync(2000);
    expect(saver.getStatus()).toEqual({ state: 'error', message: 'Урок должен иметь ID и название для сохранения' });
    await jest.advanceTimersByTimeAsync(5000);
    expect(saver.getStatus()).toEqual({ state: 'idle' });
    const newLesson = new Autosaver(lesson({ id: 'new' }), lessonAutosave(server.save));
    newLesson.change(lesson({ id: 'new', title: 'Есть название' }));
    await jest.runAllTimersAsync();
    expect(server.calls).toHaveLength(0);

    const courseServer = fakeServer<CourseDraft>();
    const courseSaver = new Autosaver(course(), courseAutosave(courseServer.save));
    courseSaver.change(course({ title: '' }));
    await jest.advanceTimersByTimeAsync(1000);
    expect(courseSaver.getStatus()).toEqual({ state: 'error', message: 'Курс должен иметь ID и название для сохранения' });
    expect(courseServer.calls).toHaveLength(0);
  });
});

describe('forced saves', () => {
  it("'Повторить' in the error state saves at once", async () => {
    const server = fakeServer<LessonDraft>();
    server.mode = 'fail';
    const saver = new Autosaver(lesson(), lessonAutosave(server.save));
    saver.change(lesson({ title: 'важное' }));
    await jest.advanceTimersByTimeAsync(6000);
    expect(saver.getStatus().state).toBe('error');
    server.mode = 'ok';
    saver.saveNow();
    expect(saver.getStatus().state).toBe('saving');
    await jest.advanceTimersByTimeAsync(0);
    expect(server.calls).toHaveLength(4);
    expect(server.calls[3].doc.title).toBe('важное');
    expect(saver.getStatus().state).toBe('saved');
    // The error's timer no longer turns the status to idle.
    await jest.advanceTimersByTimeAsync(5000);
    expect(saver.getStatus().state).toBe('saved');
  });

  it('saves at once during the quiet period and not again when it ends', async () => {
    const server = fakeServer<LessonDraft>();
    const saver = new Autosaver(lesson(), lessonAutosave(server.save));
    saver.change(lesson({ title: 'быстро' }));
    await jest.advanceTimersByTimeAsync(500);
    await saver.flush();
    expect(server.calls).toHaveLength(1);
    expect(Date.now() - new Date('2026-11-22T10:00:00Z').getTime()).toBe(500);
    await jest.runAllTimersAsync();
    expect(server.calls).toHaveLength(1);
  });

  it('a forced save with nothing new does nothing', async () => {
    const server = fakeServer<LessonDraft>();
    const saver = new Autosaver(lesson(), lessonAutosave(server.save));
    saver.saveNow();
    await saver.flush();
    expect(server.calls).toHaveLength(0);
    expect(saver.getStatus()).toEqual({ state: 'idle' });
  });
});

describe('ordering of saves', () => {
  it('never runs two saves at once, and the last save carries the newest content', async () => {
    const server = fakeServer<LessonDraft>();
    server.hold = true;
    const saver = new Autosaver(lesson(), lessonAutosave(server.save));
    saver.change(lesson({ title: 'v1' }));
    await jest.advanceTimersByTimeAsync(2000);
    expect(server.calls.map((c) => c.doc.title)).toEqual(['v1']);
    saver.change(lesson({ title: 'v2' }));
    await jest.advanceTimersByTimeAsync(2000);
    saver.change(lesson({ title: 'v3' }));
    saver.saveNow();
    await jest.advanceTimersByTimeAsync(0);
    // Still only the first one under way.
    expect(server.calls.map((c) => c.doc.title)).toEqual(['v1']);
    server.hold = false;
    server.release();
    await jest.runAllTimersAsync();
    expect(server.calls.map((c) => c.doc.title)).toEqual(['v1', 'v3']);
    expect(server.maxInFlight).toBe(1);
    expect(saver.isDirty()).toBe(false);
    expect(saver.getStatus().state).toBe('saved');
  });

  it('saves again when content went back to the old version while the newer one was being written', async () => {
    const server = fakeServer<LessonDraft>();
    server.hold = true;
    const saver = new Autosaver(lesson(), lessonAutosave(server.save));
    saver.change(lesson({ title: 'временно' }));
    await jest.advanceTimersByTimeAsync(2000);
    saver.change(lesson()); // undone while 'временно' is being written
    server.hold = false;
    server.release();
    await jest.runAllTimersAsync();
    expect(server.calls.map((c) => c.doc.title)).toEqual(['временно', 'урок_1']);
    expect(saver.isDirty()).toBe(false);
  });
});

describe('one indicator for several documents', () => {
  it('shows an error first, then saving, then the latest save, else idle', () => {
    expect(combineStatuses([])).toEqual({ state: 'idle' });
    expect(combineStatuses([{ state: 'idle' }, { state: 'saved', savedAt: 5 }, { state: 'saved', savedAt: 9 }])).toEqual({
      state: 'saved',
      savedAt: 9,
    });
    expect(combineStatuses([{ state: 'saved', savedAt: 5 }, { state: 'saving' }])).toEqual({ state: 'saving' });
    expect(combineStatuses([{ state: 'saving' }, { state: 'error', message: 'м' }])).toEqual({ state: 'error', message: 'м' });
  });
});
