import { CONTENT_MSG, type BankPage, type BankQuestion } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { basedOnStored, seedCourse, startContent, type ContentTestBed } from '../../testing';

/** A course's question bank: who reads and writes it, paging, tags and lost updates. */
let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

// Every edit here is based on the version stored just before it, as the editor's is on what it read.
const call = async <T = any>(method: string, path: string, token?: string, body?: unknown, headers?: Record<string, string>) =>
  api<T>(bed.content.url, method, path, {
    token,
    body: method === 'PATCH' || method === 'PUT' ? await basedOnStored(bed, path, body) : body,
    headers,
  });
const curator = () => bed.as.CURATOR.token;

const single = (text: string, right = 0) => ({
  type: 'single_choice',
  question: text,
  options: ['Да', 'Нет'],
  correctAnswers: [right],
});

async function bankOf() {
  const course = await seedCourse(bed, { modules: [] });
  const base = `/api/courses/${course.id}/bank`;
  return { course, base };
}

describe('question bank', () => {
  it('an author adds tagged questions, lists them a page at a time, by tag, with every tag counted', async () => {
    const { course, base } = await bankOf();
    const created: BankQuestion[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await call<BankQuestion>('POST', base, curator(), {
        tags: i < 3 ? ['охрана труда', 'охрана труда'] : ['отпуск', 'охрана труда'],
        question: { ...single(`Вопрос ${i}`), id: 'ignored' },
      });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('etag')).toBe('"0"');
      created.push(answer.body);
    }
    expect(created[0]).toMatchObject({ courseId: course.id, tags: ['охрана труда'], version: 0 });
    // The bank gives the question its own id, so a draw never collides with a quiz's questions.
    expect(created[0].question.id).toBe(`bank-${created[0].id}`);
    expect(created[0].question.correctAnswers).toEqual([0]);

    const first = await call<BankPage>('GET', `${base}?limit=2`, curator());
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 5, page: 1, limit: 2 });
    expect(first.body.data.map((q) => q.question.question)).toEqual(['Вопрос 4', 'Вопрос 3']);
    expect(first.body.tags).toEqual([
      { tag: 'отпуск', count: 2 },
      { tag: 'охрана труда', count: 5 },
    ]);
    const third = await call<BankPage>('GET', `${base}?limit=2&page=3`, curator());
    expect(third.body.data.map((q) => q.question.question)).toEqual(['Вопрос 0']);
    const tagged = await call<BankPage>('GET', `${base}?tag=${encodeURIComponent('отпуск')}`, bed.as.ADMIN.token);
    expect(tagged.body).toMatchObject({ total: 2 });
    expect(tagged.body.data.every((q) => q.tags.includes('отпуск'))).toBe(true);
  });

  it('two authors editing one question: the second, based on the old version, gets 412 and changes nothing', async () => {
    const { base } = await bankOf();
    const { body: q } = await call<BankQuestion>('POST', base, curator(), { tags: ['a'], question: single('Исходный') });
    const read = await call<BankQuestion>('GET', `${base}/${q.id}`, curator());
    expect(read.headers.get('etag')).toBe('"0"');

    const mine = await call<BankQuestion>(
      'PUT',
      `${base}/${q.id}`,
      curator(),
      { tags: ['a', 'b'], question: single('Мой', 1) },
      { 'If-Match': '"0"' },
    );
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ version: 1, tags: ['a', 'b'] });
    expect(mine.headers.get('etag')).toBe('"1"');

    const theirs = await call(
      'PUT',
      `${base}/${q.id}`,
      bed.as.ADMIN.token,
      { tags: ['c'], question: single('Их') },
      { 'If-Match': '"0"' },
    );
    expect(theirs).toMatchObject({ status: 412, body: { message: 'Документ изменён другим пользователем' } });
    const stored = await call<BankQuestion>('GET', `${base}/${q.id}`, curator());
    expect(stored.body).toMatchObject({ version: 1, tags: ['a', 'b'], question: { question: 'Мой', correctAnswers: [1] } });

    expect((await call('DELETE', `${base}/${q.id}`, curator())).status).toBe(204);
    expect(await call('GET', `${base}/${q.id}`, curator())).toMatchObject({
      status: 404,
      body: { message: 'Вопрос банка не найден' },
    });
  });

  it('learners never read it; only the course’s authors write it; bad input is a Russian 400; nothing changes', async () => {
    const { course, base } = await bankOf();
    const { body: q } = await call<BankQuestion>('POST', base, curator(), { tags: ['a'], question: single('Секрет') });
    expect((await call('GET', base)).status).toBe(401);
    for (const role of ['CLIENT', 'CANDIDATE', 'MANAGER'] as const) {
      expect((await call('GET', base, bed.as[role].token)).status).toBe(403);
      expect((await call('GET', `${base}/${q.id}`, bed.as[role].token)).status).toBe(403);
      expect((await call('POST', base, bed.as[role].token, { tags: ['a'], question: single('x') })).status).toBe(403);
    }
    const stranger = await userWithRole(bed.auth, 'CURATOR', 'Ольга Сторонняя');
    // Another curator is no author of this course: its bank (with the answer keys) is not theirs to read.
    expect((await call('GET', base, stranger.token)).body).toMatchObject({
      statusCode: 403,
      message: CONTENT_MSG.courseAuthorsOnly,
    });
    expect((await call('GET', `${base}/${q.id}`, stranger.token)).status).toBe(403);
    for (const [method, path] of [
      ['POST', base],
      ['PUT', `${base}/${q.id}`],
      ['DELETE', `${base}/${q.id}`],
    ] as const) {
      const refused = await call(method, path, stranger.token, { tags: ['z'], question: single('Чужой') });
      expect(refused).toMatchObject({
        status: 403,
        body: { message: 'Изменять этот курс могут только его автор, соавторы и администратор' },
      });
    }

    const bad = [
      { tags: [], question: single('Без меток') },
      { tags: [{ $gt: '' }], question: single('Оператор') },
      { tags: ['a'], question: { ...single(''), question: '' } },
      { tags: ['a'], question: { $gt: '' } },
    ];
    for (const body of bad) {
      const answer = await call('POST', base, curator(), body);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/[а-яё]/i);
    }
    expect((await call('GET', `/api/courses/${encodeURIComponent('{"$gt":""}')}/bank`, curator())).status).toBe(400);
    expect((await call('GET', `${base}/${encodeURIComponent('{"$gt":""}')}`, curator())).status).toBe(400);
    expect((await call('GET', `${base}?limit=500`, curator())).status).toBe(400);
    const page = await call<BankPage>('GET', base, curator());
    expect(page.body.data.map((x) => x.question.question)).toEqual(['Секрет']);
    expect(course.id).toBeTruthy();
  });

  it('goes with a copy of its course: the copy has its own questions, with their own ids', async () => {
    const { course, base } = await bankOf();
    const added = await call<BankQuestion>('POST', base, curator(), {
      tags: ['отпуск'],
      question: single('Сколько дней отпуска?'),
    });
    expect(added.status).toBe(201);
    const copy = await call<{ id: string }>('POST', `/api/courses/${course.id}/copy`, curator());
    expect(copy.status).toBe(201);
    const copied = await call<BankPage>('GET', `/api/courses/${copy.body.id}/bank`, curator());
    expect(copied.body).toMatchObject({ total: 1, tags: [{ tag: 'отпуск', count: 1 }] });
    const [question] = copied.body.data;
    expect(question).toMatchObject({
      courseId: copy.body.id,
      question: { question: 'Сколько дней отпуска?', correctAnswers: [0] },
    });
    expect(question.id).not.toBe(added.body.id);
    expect(question.question.id).toBe(`bank-${question.id}`);
    // Changing the copy's question leaves the original's alone.
    const changed = await call('PUT', `/api/courses/${copy.body.id}/bank/${question.id}`, curator(), {
      tags: ['отпуск'],
      question: single('Изменённый вопрос'),
      version: question.version,
    });
    expect(changed.status).toBe(200);
    expect((await call<BankQuestion>('GET', `${base}/${added.body.id}`, curator())).body.question.question).toBe(
      'Сколько дней отпуска?',
    );
  });
});
