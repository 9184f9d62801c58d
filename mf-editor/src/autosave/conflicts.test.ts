import { CONTENT_MSG, MSG, type QuizCreateInput } from '@portal/contracts';
import { ApiError, type RequestOptions } from '@portal/web-core';
import { createApiBackend, type ApiCall } from '../api/content';
import { Autosaver } from './autosave';
import { copyTitle, settleCourseConflict, settleQuizConflict } from './conflicts';
import { courseAutosave, courseWrite, isConflict, type CourseDraft } from './savers';

type Doc = Record<string, unknown> & { id: string; version: number };

/**
 * The content service's rule for versions, in memory: a write naming no version is refused with 428,
 * one naming a version other than the stored one with 412, and neither changes anything; any other
 * write moves the version on by one.
 * Each author gets the editor's real API backend (its own version map) over this one store.
 */
function versionedServer() {
  const docs = new Map<string, Doc>();
  const writes: Array<{ method: string; path: string; version: unknown }> = [];
  let next = 0;
  const create = (fields: Record<string, unknown>): Doc => {
    const doc = { ...fields, id: `d${++next}`, version: 0 };
    docs.set(doc.id, doc);
    return structuredClone(doc);
  };
  const call = async (path: string, { method = 'GET', body }: RequestOptions = {}): Promise<unknown> => {
    const [, kind, id, action] = path.split('/');
    if (method === 'POST' && !id) {
      writes.push({ method, path, version: undefined });
      return create({ ...(body as object), kind });
    }
    const doc = docs.get(id);
    if (!doc) throw new ApiError('Не найдено', 404);
    if (method === 'GET') return structuredClone(action === 'outline' ? { ...doc, modules: [] } : doc);
    if (method === 'POST' && action === 'copy') {
      writes.push({ method, path, version: undefined });
      return create({ ...doc, title: copyTitle(doc.title as string), status: 'draft' });
    }
    const { version, ...patch } = body as { version?: number };
    writes.push({ method, path, version });
    if (version === undefined) throw new ApiError(MSG.versionRequired, 428);
    if (version !== doc.version) throw new ApiError(MSG.staleDocument, 412);
    Object.assign(doc, patch, { version: doc.version + 1 });
    return structuredClone(doc);
  };
  return {
    docs,
    writes,
    create,
    stored: (id: string) => structuredClone(docs.get(id) as Doc),
    author: () => createApiBackend(call as ApiCall),
  };
}

const quizInput = (title: string): QuizCreateInput => ({
  title,
  description: '',
  courseId: 'c1',
  questions: [],
  settings: {} as QuizCreateInput['settings'],
});

beforeEach(() => {
  jest.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
});
afterEach(() => {
  jest.useRealTimers();
});

describe('a quiz another author saved first', () => {
  /** Both authors opened version 0; the other one saved first, so the quiz is at version 1. */
  async function arrange() {
    const server = versionedServer();
    const quiz = server.create({ kind: 'quizzes', ...quizInput('Исходный квиз') });
    const mine = server.author();
    const opened = await mine.getQuiz(quiz.id);
    await server.author().saveQuiz(quiz.id, quizInput('Квиз другого автора'), 0);
    const refusal = await mine.saveQuiz(quiz.id, quizInput('Мой квиз'), opened.version).catch((err: unknown) => err);
    return { server, quiz, mine, refusal };
  }

  it('is refused with 412 «Документ изменён другим пользователем», and the other version stays stored', async () => {
    const { server, quiz, refusal } = await arrange();
    expect(isConflict(refusal)).toBe(true);
    expect((refusal as Error).message).toBe('Документ изменён другим пользователем');
    expect(server.stored(quiz.id)).toMatchObject({ title: 'Квиз другого автора', version: 1 });
  });

  it('«Перезаписать» stores the author’s quiz, based on the version now stored', async () => {
    const { server, quiz, mine } = await arrange();
    const outcome = await settleQuizConflict(mine, quiz.id, quizInput('Мой квиз'), 'overwrite');
    expect(outcome).toMatchObject({ saved: { id: quiz.id, title: 'Мой квиз', version: 2 } });
    expect(server.stored(quiz.id)).toMatchObject({ title: 'Мой квиз', version: 2 });
    expect(server.writes.at(-1)).toEqual({ method: 'PATCH', path: `/quizzes/${quiz.id}`, version: 1 });
  });

  it('«Загрузить их версию» answers the stored quiz and writes nothing; a save based on it then succeeds', async () => {
    const { server, quiz, mine } = await arrange();
    const writes = server.writes.length;
    const outcome = await settleQuizConflict(mine, quiz.id, quizInput('Мой квиз'), 'theirs');
    expect(outcome).toEqual({ theirs: expect.objectContaining({ title: 'Квиз другого автора', version: 1 }) });
    expect(server.writes).toHaveLength(writes);
    const theirs = (outcome as { theirs: { version: number } }).theirs;
    await expect(mine.saveQuiz(quiz.id, quizInput('Правка их версии'), theirs.version)).resolves.toMatchObject({ version: 2 });
  });

  it('«Сохранить мою как копию» stores the author’s quiz as a new quiz of the course and leaves the other version', async () => {
    const { server, quiz, mine } = await arrange();
    const outcome = await settleQuizConflict(mine, quiz.id, quizInput('Мой квиз'), 'copy');
    expect(outcome).toMatchObject({ theirs: { id: quiz.id, title: 'Квиз другого автора' }, copy: { title: 'Мой квиз (копия)' } });
    const copyId = (outcome as { copy: { id: string } }).copy.id;
    expect(copyId).not.toBe(quiz.id);
    expect(server.stored(copyId)).toMatchObject({ title: 'Мой квиз (копия)', courseId: 'c1', version: 0 });
    expect(server.stored(quiz.id)).toMatchObject({ title: 'Квиз другого автора', version: 1 });
  });
});

describe('a course form another author saved first', () => {
  const fields = (patch: Partial<CourseDraft> = {}): Omit<CourseDraft, 'id'> => ({
    title: 'Курс',
    description: 'Исходное описание',
    price: 0,
    duration: 10,
    level: 'Начальный',
    status: 'draft',
    ...patch,
  });

  /** The author's autosave is refused: the other author saved the course first. */
  async function arrange() {
    const server = versionedServer();
    const course = server.create({ kind: 'courses', ...fields() });
    const backend = server.author();
    await backend.loadOutline(course.id);
    let conflicts = 0;
    const saver = new Autosaver<CourseDraft>(
      { id: course.id, ...fields() },
      courseAutosave(async (doc) => {
        try {
          return await backend.updateCourse(doc.id, courseWrite(doc));
        } catch (err) {
          if (isConflict(err)) conflicts++;
          throw err;
        }
      }),
    );
    const other = server.author();
    await other.loadOutline(course.id);
    await other.updateCourse(course.id, { description: 'Описание другого автора' });
    const mine: CourseDraft = { id: course.id, ...fields({ title: 'Мой курс', price: 1500 }) };
    saver.change(mine);
    await jest.advanceTimersByTimeAsync(1000);
    return { server, course, backend, saver, mine, conflicts: () => conflicts };
  }

  it('keeps the author’s fields unsaved after the 412, without retrying', async () => {
    const { server, course, saver, mine, conflicts } = await arrange();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(conflicts()).toBe(1);
    expect(saver.getLatest()).toEqual(mine);
    expect(saver.isDirty()).toBe(true);
    expect(server.stored(course.id)).toMatchObject({ title: 'Курс', description: 'Описание другого автора', version: 1 });
  });

  it('«Перезаписать» saves the author’s fields, based on the version now stored', async () => {
    const { server, course, backend, saver } = await arrange();
    expect(await settleCourseConflict(backend, saver, 'overwrite')).toEqual({});
    expect(server.stored(course.id)).toMatchObject({
      title: 'Мой курс',
      price: 1500,
      description: 'Исходное описание',
      version: 2,
    });
    expect(server.writes.at(-1)).toEqual({ method: 'PATCH', path: `/courses/${course.id}`, version: 1 });
    expect(saver.isDirty()).toBe(false);
    expect(saver.getStatus().state).toBe('saved');
  });

  it('«Загрузить их версию» puts the stored fields in the form and writes nothing; the next edit saves over them', async () => {
    const { server, course, backend, saver } = await arrange();
    const writes = server.writes.length;
    const outcome = await settleCourseConflict(backend, saver, 'theirs');
    expect(outcome).toEqual({
      theirs: { id: course.id, ...fields({ description: 'Описание другого автора' }) },
      copy: undefined,
    });
    await jest.advanceTimersByTimeAsync(10_000);
    expect(server.writes).toHaveLength(writes);
    expect(saver.isDirty()).toBe(false);

    saver.change({ ...(outcome.theirs as CourseDraft), level: 'Продвинутый' });
    await jest.advanceTimersByTimeAsync(1000);
    expect(server.stored(course.id)).toMatchObject({ description: 'Описание другого автора', level: 'Продвинутый', version: 2 });
  });

  it('«Сохранить мою как копию» copies the course with the author’s fields as a draft, and shows the stored fields', async () => {
    const { server, course, backend, saver } = await arrange();
    const outcome = await settleCourseConflict(backend, saver, 'copy');
    expect(outcome.theirs).toMatchObject({ title: 'Курс', description: 'Описание другого автора' });
    expect(outcome.copy).toEqual({ id: expect.any(String), title: `Мой курс${CONTENT_MSG.copySuffix}` });
    const copy = server.stored((outcome.copy as { id: string }).id);
    expect(copy).toMatchObject({ title: 'Мой курс (копия)', price: 1500, description: 'Исходное описание', status: 'draft' });
    expect(server.stored(course.id)).toMatchObject({ title: 'Курс', description: 'Описание другого автора', version: 1 });
    expect(saver.isDirty()).toBe(false);
  });
});
