import { MAX_PAGE_SIZE, PAGING_MSG, type ResultsPage } from '@portal/contracts';
import { api, storeOperationsDuring } from '@portal/devstack/testing';
import { op } from '@portal/service-kit';
import { Types } from 'mongoose';
import { startProgress, type ProgressTestBed } from '../../testing';

let bed: ProgressTestBed;
beforeAll(async () => {
  bed = await startProgress();
});
afterAll(() => bed.close());

const results = (query: string, token = bed.as.ADMIN.token) =>
  api<ResultsPage>(bed.progress.url, 'GET', `/api/results?${query}`, { token });

const question = { id: 'q1', type: 'true_false', question: 'Верно?', options: [], correctAnswer: 'true', order: 0, points: 1 };

/**
 * Stores `count` attempts of one person and quiz as the routes leave them; `finished` ones all
 * completed in the same millisecond (so only the tie-breaker orders them), the others still open
 * with a deadline long past.
 */
async function storeAttempts(tag: string, count: number, { userId = new Types.ObjectId().toHexString(), finished = true } = {}) {
  const at = new Date(Date.now() - 3_600_000);
  const quizId = `quiz-${tag}`;
  const docs = Array.from({ length: count }, (_, i) => ({
    _id: new Types.ObjectId(),
    userId,
    userName: `Ученик ${tag}`,
    quizId,
    quizTitle: `Квиз ${tag}`,
    quizDescription: '',
    courseId: new Types.ObjectId().toHexString(),
    courseTitle: `Курс ${tag}`,
    lessonId: new Types.ObjectId().toHexString(),
    attemptNumber: i + 1,
    status: finished ? (i % 2 ? 'passed' : 'failed') : 'in_progress',
    passingScore: 70,
    maxAttempts: count + 1,
    showExplanations: 'immediately',
    timeLimit: 1,
    startedAt: new Date(at.getTime() - 60_000),
    deadline: at,
    completedAt: finished ? at : null,
    questions: [{ ...question, optionOrder: [], leftOrder: [], rightOrder: [] }],
    answers: [],
    score: finished && i % 2 ? 1 : 0,
    maxScore: 1,
    percentage: finished && i % 2 ? 100 : 0,
  }));
  await bed.store.attempts.collection.insertMany(docs);
  return { ids: docs.map((d) => String(d._id)), userId, quizId };
}

describe('GET /api/results in pages', () => {
  it('answers 20 by default and up to 100, refusing more with 400 in Russian', async () => {
    const tag = `пределы${Date.now().toString(36)}`;
    await storeAttempts(tag, MAX_PAGE_SIZE + 3);

    const first = await results(`search=${tag}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, limit: 20, total: MAX_PAGE_SIZE + 3 });
    expect(first.body.data).toHaveLength(20);
    expect((await results(`search=${tag}&limit=${MAX_PAGE_SIZE}`)).body.data).toHaveLength(MAX_PAGE_SIZE);

    const refused = await results(`limit=${MAX_PAGE_SIZE + 1}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      message: PAGING_MSG.limitInvalid.replace('{max}', String(MAX_PAGE_SIZE)),
      statusCode: 400,
    });
    expect((await results('page=0')).body).toMatchObject({ message: PAGING_MSG.pageInvalid, statusCode: 400 });
  });

  it('pages through attempts completed in the same millisecond without losing or repeating one', async () => {
    const tag = `порядок${Date.now().toString(36)}`;
    const { ids } = await storeAttempts(tag, 13);
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const answer = await results(`search=${tag}&limit=5&page=${page}`);
      expect(answer.body.total).toBe(13);
      expect(answer.body.summary).toMatchObject({ total: 13, passed: 6, failed: 7 });
      seen.push(...answer.body.data.map((a) => a.id));
    }
    expect(seen).toEqual([...ids].sort().reverse());
    const passed = await results(`search=${tag}&status=passed&limit=100`);
    expect(passed.body.total).toBe(6);
    expect(passed.body.data.every((a) => a.status === 'passed')).toBe(true);
  });

  it('reads the same few times for 2 results and for 100, titles and names included', async () => {
    const few = `мало${Date.now().toString(36)}`;
    const many = `много${Date.now().toString(36)}`;
    await storeAttempts(few, 2);
    await storeAttempts(many, 100);
    await results(`search=${few}`); // the person is cached after this

    const fewOps = await storeOperationsDuring(bed.progress, () => results(`search=${few}&limit=100`));
    let answer: Awaited<ReturnType<typeof results>> | undefined;
    const manyOps = await storeOperationsDuring(bed.progress, async () => {
      answer = await results(`search=${many}&limit=100`);
    });
    expect(answer?.body.data).toHaveLength(100);
    expect(answer?.body.data[0]).toMatchObject({
      courseTitle: `Курс ${many}`,
      quizTitle: `Квиз ${many}`,
      userName: `Ученик ${many}`,
    });
    expect(manyOps).toEqual(fewOps);
    expect(fewOps.length).toBeLessThanOrEqual(4);
  });

  it('closes any number of attempts whose time ran out, an update each, and lists them as failed', async () => {
    const tag = `истекли${Date.now().toString(36)}`;
    const learner = await bed.learner('CANDIDATE', `Ученик ${tag}`);
    const { ids } = await storeAttempts(tag, 30, { userId: learner.user.id, finished: false });

    let answer: Awaited<ReturnType<typeof results>> | undefined;
    const ops = await storeOperationsDuring(bed.progress, async () => {
      answer = await results(`limit=100`, learner.token);
    });
    expect(answer?.body.total).toBe(30);
    expect(answer?.body.data.every((a) => a.status === 'failed' && a.score === 0)).toBe(true);
    // One command each (a bulk of them can stop FerretDB: updateEach), and no read per attempt.
    expect(ops.filter((op) => op === 'attempts.bulkWrite')).toHaveLength(30);
    expect(ops.filter((op) => op.startsWith('attempts.find')).length).toBeLessThanOrEqual(2);
    const stored = await bed.store.attempts.find({ _id: op({ $in: ids }) }).lean();
    expect(stored.every((a) => a.status === 'failed' && a.completedAt?.getTime() === a.deadline?.getTime())).toBe(true);
  });
});
