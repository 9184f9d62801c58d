import { REVIEW_MSG, type AttemptDetail, type AuthResponse, type ResultsPage, type StartedAttempt } from '@portal/contracts';
import { download, readCsv, readXlsx } from '@portal/devstack/exports';
import { api } from '@portal/devstack/testing';
import { attemptModel } from '../../models/attempt';
import { question, seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

/** «На проверке» is its own status in the list, its filter, its cards and its export; course and period filters. */
let bed: ProgressTestBed;
let essay: SeededCourse;
let single: SeededCourse;
let learner: AuthResponse;
const tag = Date.now().toString(36);

const call = <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<T>(bed.progress.url, method, path, { token, body });

/**
 * Takes a quiz of one question through the real routes with this answer; a choice is named by its
 * text, since an attempt may show the options shuffled.
 */
async function take(s: SeededCourse, answer: string | { option: string }): Promise<AttemptDetail> {
  const started = await call<StartedAttempt>('POST', '/api/attempts', learner.token, {
    quizId: s.quiz.id,
    courseId: s.course.id,
    lessonId: s.quizLessonId,
  });
  const done = await call<AttemptDetail>('POST', `/api/attempts/${started.body.attempt.id}/submit`, learner.token, {
    answers: [
      {
        questionId: started.body.questions[0].id,
        answer: typeof answer === 'string' ? answer : started.body.questions[0].options.indexOf(answer.option),
      },
    ],
  });
  if (done.status !== 200) throw new Error(JSON.stringify(done.body));
  return done.body;
}

beforeAll(async () => {
  bed = await startProgress();
  essay = await seedQuizCourse(bed, {
    title: `Эвакуация ${tag}`,
    questions: [question({ id: 'la', type: 'long_answer', question: 'Опишите порядок эвакуации', points: 2, order: 0 })],
  });
  single = await seedQuizCourse(bed, {
    title: `Отпуск ${tag}`,
    questions: [
      question({
        id: 'sc',
        type: 'single_choice',
        question: 'Сколько дней?',
        options: ['14', '28'],
        correctAnswers: [1],
        order: 0,
      }),
    ],
  });
  learner = await bed.learner('CLIENT', `Ученица ${tag}`);
  await take(essay, 'Выйти по лестнице, не пользуясь лифтом'); // waits for a person
  await take(single, { option: '28' }); // passed
  await take(single, { option: '14' }); // failed
});
afterAll(() => bed.close());

describe('results «На проверке»', () => {
  it('counts an attempt waiting for a person as pending, not as failed, and filters by it', async () => {
    const staff = bed.as.ADMIN.token;
    const all = await call<ResultsPage>('GET', `/api/results?search=${tag}`, staff);
    expect(all.body.summary).toMatchObject({ total: 3, passed: 1, failed: 1, pending: 1 });

    const pending = await call<ResultsPage>('GET', `/api/results?search=${tag}&status=pending`, staff);
    expect(pending.body.data.map((a) => [a.courseTitle, a.pendingReviews])).toEqual([[essay.course.title, 1]]);
    expect(pending.body.summary).toMatchObject({ total: 1, passed: 0, failed: 0, pending: 1 });
    const failed = await call<ResultsPage>('GET', `/api/results?search=${tag}&status=failed`, staff);
    expect(failed.body.data.map((a) => a.courseTitle)).toEqual([single.course.title]);
  });

  it('exports it as «На проверке», with minutes written with a decimal comma in the CSV and as a number in the XLSX', async () => {
    // One attempt took 90 seconds: 1.5 minutes.
    const attempts = attemptModel(bed.progress.ctx.store);
    const passed = await attempts.findOne({ userId: learner.user.id, courseId: single.course.id, status: 'passed' }).lean();
    await attempts.updateOne({ _id: passed!._id }, { $set: { startedAt: new Date(passed!.completedAt!.getTime() - 90_000) } });

    const url = (format: string) => `${bed.progress.url}/api/results/export?format=${format}&tz=Europe/Moscow&search=${tag}`;
    const rows = readCsv((await download(url('csv'), bed.as.ADMIN.token)).bytes);
    const status = rows[0].indexOf('Статус');
    const minutes = rows[0].indexOf('Время (мин)');
    const byCourse = (title: string) => rows.filter((r) => r[1] === title);
    expect(byCourse(essay.course.title).map((r) => r[status])).toEqual([REVIEW_MSG.pending]);
    expect(
      byCourse(single.course.title)
        .map((r) => r[status])
        .sort(),
    ).toEqual(['Не пройден', 'Пройден']);
    expect(byCourse(single.course.title).find((r) => r[status] === 'Пройден')![minutes]).toBe('1,5');

    const sheet = await readXlsx((await download(url('xlsx'), bed.as.ADMIN.token)).bytes);
    const row = sheet.rows.find((r) => r[1] === single.course.title && r[status] === 'Пройден')!;
    expect(row[minutes]).toBe(1.5);
    expect(sheet.rows.find((r) => r[1] === essay.course.title)![status]).toBe(REVIEW_MSG.pending);
  });

  it('narrows the list, its cards and its export to one course and to a period of days', async () => {
    const staff = bed.as.ADMIN.token;
    const course = await call<ResultsPage>('GET', `/api/results?courseId=${single.course.id}`, staff);
    expect(course.body.summary).toMatchObject({ total: 2, passed: 1, failed: 1, pending: 0 });

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date());
    const inPeriod = await call<ResultsPage>('GET', `/api/results?search=${tag}&from=${today}&to=${today}`, staff);
    expect(inPeriod.body.total).toBe(3);
    const before = await call<ResultsPage>('GET', `/api/results?search=${tag}&from=2020-01-01&to=2020-12-31`, staff);
    expect(before.body).toMatchObject({ total: 0, data: [] });
    const exported = readCsv(
      (await download(`${bed.progress.url}/api/results/export?courseId=${essay.course.id}&tz=Europe/Moscow`, staff)).bytes,
    );
    expect(exported.slice(1).map((r) => r[1])).toEqual([essay.course.title]);
  });

  it('refuses a period that ends before it starts, or a day that is not one, in Russian', async () => {
    const staff = bed.as.ADMIN.token;
    const reversed = await call('GET', '/api/results?from=2026-12-10&to=2026-12-01', staff);
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({ message: 'Начало периода не может быть позже его конца', field: 'to' });
    const notADay = await call('GET', '/api/results?from=вчера', staff);
    expect(notADay.status).toBe(400);
    expect(notADay.body).toMatchObject({ message: 'Начало периода — дата в формате ГГГГ-ММ-ДД', field: 'from' });
    const status = await call('GET', '/api/results?status=lost', staff);
    expect(status.status).toBe(400);
  });
});
