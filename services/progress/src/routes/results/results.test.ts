import {
  EXPORT_MSG,
  PROGRESS_MSG,
  RESULTS_CSV_HEADER,
  type AttemptDetail,
  type AuthResponse,
  type ResultsPage,
  type StartedAttempt,
} from '@portal/contracts';
import { download, readCsv, readXlsx } from '@portal/devstack/exports';
import { api, publishedAuditEvents } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

let bed: ProgressTestBed;
let hr: SeededCourse;
let safety: SeededCourse;
let anna: AuthResponse;
let boris: AuthResponse;
const tag = Date.now().toString(36);

const call = <T = any>(method: string, path: string, token?: string) => api<T>(bed.progress.url, method, path, { token });

/** Takes the sample quiz through the real routes, passing or failing it. */
async function attempt(who: AuthResponse, s: SeededCourse, pass: boolean): Promise<AttemptDetail> {
  const started = await api<StartedAttempt>(bed.progress.url, 'POST', '/api/attempts', {
    token: who.token,
    body: { quizId: s.quiz.id, courseId: s.course.id, lessonId: s.quizLessonId },
  });
  const answers = started.body.questions.map((q) => ({
    questionId: q.id,
    answer:
      q.type === 'single_choice'
        ? q.options.indexOf('28')
        : q.type === 'true_false'
          ? String(pass)
          : pass
            ? 'Трудовой кодекс'
            : 'не знаю',
    timeSpent: 10,
  }));
  const done = await api<AttemptDetail>(bed.progress.url, 'POST', `/api/attempts/${started.body.attempt.id}/submit`, {
    token: who.token,
    body: { answers },
  });
  if (done.status !== 200) throw new Error(JSON.stringify(done.body));
  return done.body;
}

beforeAll(async () => {
  bed = await startProgress();
  hr = await seedQuizCourse(bed, { title: `Курс "Охрана труда", часть 1 ${tag}`, quizTitle: `Итоговый\nтест ${tag}` });
  safety = await seedQuizCourse(bed, { title: `Пожарная безопасность ${tag}`, quizTitle: `Огнетушители ${tag}` });
  // Names a spreadsheet could misread: a field separator and a formula at the start, quotes inside.
  anna = await bed.learner('CANDIDATE', `;=Смирнова; Анна "Аня" ${tag}`);
  boris = await bed.learner('CLIENT', `=HYPERLINK("http://evil") Борис ${tag}`);
  await attempt(anna, hr, false); // 33%
  await attempt(anna, hr, true); // 100%
  await attempt(anna, safety, true); // 100%
  await attempt(boris, hr, false); // 33%
  // An unfinished attempt is not a result.
  await api(bed.progress.url, 'POST', '/api/attempts', {
    token: boris.token,
    body: { quizId: safety.quiz.id, courseId: safety.course.id, lessonId: safety.quizLessonId },
  });
});
afterAll(() => bed.close());

describe('GET /api/results', () => {
  it('answers 401 without a token and 400 for a bad filter', async () => {
    expect((await call('GET', '/api/results')).status).toBe(401);
    const bad = await call('GET', '/api/results?status=lost', anna.token);
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('status');
    expect((await call('GET', '/api/results?page=0', anna.token)).body.field).toBe('page');
  });

  it('gives a learner only their own finished attempts, newest first, with the summary cards', async () => {
    const answer = await call<ResultsPage>('GET', '/api/results', anna.token);
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(3);
    expect(answer.body.data.every((a) => a.userId === anna.user.id && a.status !== 'in_progress')).toBe(true);
    expect(answer.body.data.map((a) => a.percentage)).toEqual([100, 100, 33]);
    expect(answer.body.summary).toEqual({ total: 3, passed: 2, failed: 1, pending: 0, averagePercentage: 78 });
    expect(answer.body.data[0]).toMatchObject({
      userName: anna.user.fullName,
      courseTitle: safety.course.title,
      quizTitle: safety.quiz.title,
      score: 3,
      maxScore: 3,
      attemptNumber: 1,
      durationMinutes: expect.any(Number),
    });
  });

  it('a second learner cannot see the first one’s attempts, not even by asking for them', async () => {
    const answer = await call<ResultsPage>('GET', '/api/results', boris.token);
    expect(answer.body.data.map((a) => a.userId)).toEqual([boris.user.id]);
    const asked = await call('GET', `/api/results?userId=${anna.user.id}`, boris.token);
    expect(asked.status).toBe(403);
    expect(asked.body.message).toBe(PROGRESS_MSG.notOwnResults);
  });

  it('gives ADMIN and CURATOR everyone’s, and lets them narrow to one person', async () => {
    for (const role of ['ADMIN', 'CURATOR'] as const) {
      const all = await call<ResultsPage>('GET', `/api/results?search=${tag}`, bed.as[role].token);
      expect(all.body.total).toBe(4);
      expect(new Set(all.body.data.map((a) => a.userId))).toEqual(new Set([anna.user.id, boris.user.id]));
    }
    const one = await call<ResultsPage>('GET', `/api/results?userId=${boris.user.id}`, bed.as.ADMIN.token);
    expect(one.body.data.map((a) => a.userId)).toEqual([boris.user.id]);
  });

  it('a curator reads only the results of the courses they own or co-author, in the table and the export', async () => {
    const other = await userWithRole(bed.auth, 'CURATOR', `Ольга Сторонняя ${tag}`);
    const read = async () => (await call<ResultsPage>('GET', `/api/results?search=${tag}`, other.token)).body;
    expect(await read()).toMatchObject({ data: [], total: 0, summary: { total: 0 } });
    const askedFor = await call<ResultsPage>('GET', `/api/results?userId=${anna.user.id}`, other.token);
    expect([askedFor.status, askedFor.body.total]).toEqual([200, 0]);
    expect(readCsv((await download(`${bed.progress.url}/api/results/export?search=${tag}`, other.token)).bytes)).toEqual([
      [...RESULTS_CSV_HEADER],
    ]);
    // Made a co-author of one course, they read its results and still none of the other's.
    const added = await api(bed.content.url, 'POST', `/api/courses/${safety.course.id}/authors`, {
      token: bed.as.CURATOR.token,
      body: { userId: other.user.id },
    });
    expect(added.status).toBe(200);
    const page = await read();
    expect(page.data.map((a) => [a.userId, a.courseTitle])).toEqual([[anna.user.id, safety.course.title]]);
    expect(page.summary).toEqual({ total: 1, passed: 1, failed: 0, pending: 0, averagePercentage: 100 });
    const rows = readCsv((await download(`${bed.progress.url}/api/results/export?search=${tag}`, other.token)).bytes);
    expect(rows.slice(1).map((r) => r[1])).toEqual([safety.course.title]);
  });

  it('writes one access record per page of other people’s results, and none for a learner’s own', async () => {
    const earlier = new Set((await publishedAuditEvents(bed.progress)).map((e) => e.id));
    const readsBy = async (id: string) =>
      (await publishedAuditEvents(bed.progress)).filter(
        (e) => !earlier.has(e.id) && e.entity === 'profile' && e.actor?.id === id,
      );
    await call<ResultsPage>('GET', `/api/results?search=${tag}&limit=3&page=1`, bed.as.CURATOR.token);
    await call<ResultsPage>('GET', `/api/results?search=${tag}&limit=3&page=2`, bed.as.CURATOR.token);
    await call<ResultsPage>('GET', '/api/results', anna.token);
    expect((await readsBy(bed.as.CURATOR.user.id)).map((e) => [e.action, e.details]).sort()).toEqual([
      ['read', 'Просмотр результатов квизов: страница 1, записей 3'],
      ['read', 'Просмотр результатов квизов: страница 2, записей 1'],
    ]);
    expect(await readsBy(anna.user.id)).toEqual([]);
  });

  it('searches name, course or quiz title in any case, literally', async () => {
    const staff = bed.as.CURATOR.token;
    const byName = await call<ResultsPage>('GET', `/api/results?search=${encodeURIComponent('СМИРНОВА')}`, staff);
    expect(byName.body.total).toBe(3);
    const byCourse = await call<ResultsPage>(
      'GET',
      `/api/results?search=${encodeURIComponent(`пожарная безопасность ${tag}`)}`,
      staff,
    );
    expect(byCourse.body.data.map((a) => a.courseTitle)).toEqual([safety.course.title]);
    const byQuiz = await call<ResultsPage>('GET', `/api/results?search=${encodeURIComponent(`огнетушители ${tag}`)}`, staff);
    expect(byQuiz.body.total).toBe(1);
    expect((await call<ResultsPage>('GET', `/api/results?search=${encodeURIComponent('.*')}`, staff)).body.total).toBe(0);
  });

  it('the summary cards summarise what the search and the status filter select, within what the reader may see', async () => {
    const staff = bed.as.CURATOR.token;
    const all = await call<ResultsPage>('GET', `/api/results?search=${tag}`, staff);
    expect(all.body.summary).toEqual({ total: 4, passed: 2, failed: 2, pending: 0, averagePercentage: 67 });
    const failed = await call<ResultsPage>('GET', `/api/results?status=failed&search=${tag}`, staff);
    expect(failed.body.data.every((a) => a.status === 'failed')).toBe(true);
    expect(failed.body.total).toBe(2);
    expect(failed.body.summary).toEqual({ total: 2, passed: 0, failed: 2, pending: 0, averagePercentage: 33 });
    const passed = await call<ResultsPage>('GET', `/api/results?status=passed&search=${tag}`, staff);
    expect(passed.body.summary).toEqual({ total: 2, passed: 2, failed: 0, pending: 0, averagePercentage: 100 });
    const bySearch = await call<ResultsPage>('GET', `/api/results?search=${encodeURIComponent(`огнетушители ${tag}`)}`, staff);
    expect(bySearch.body.summary).toEqual({ total: 1, passed: 1, failed: 0, pending: 0, averagePercentage: 100 });
    // A learner's cards count their own attempts only, filtered the same way.
    const own = await call<ResultsPage>('GET', '/api/results?status=failed', anna.token);
    expect(own.body.summary).toEqual({ total: 1, passed: 0, failed: 1, pending: 0, averagePercentage: 33 });
    expect(own.body.total).toBe(own.body.summary.total);
    const theirs = await call<ResultsPage>('GET', '/api/results?status=passed', boris.token);
    expect(theirs.body.summary).toEqual({ total: 0, passed: 0, failed: 0, pending: 0, averagePercentage: 0 });
  });

  it('pages the list', async () => {
    const first = await call<ResultsPage>('GET', `/api/results?limit=2&page=1&search=${tag}`, bed.as.ADMIN.token);
    const second = await call<ResultsPage>('GET', `/api/results?limit=2&page=2&search=${tag}`, bed.as.ADMIN.token);
    expect(first.body).toMatchObject({ total: 4, page: 1, limit: 2 });
    expect(first.body.data).toHaveLength(2);
    expect(second.body.data).toHaveLength(2);
    expect(new Set([...first.body.data, ...second.body.data].map((a) => a.id)).size).toBe(4);
  });

  it('shows nothing, with zero cards, to someone who has not taken a quiz', async () => {
    const answer = await call<ResultsPage>('GET', '/api/results', (await bed.learner()).token);
    expect(answer.body).toEqual({
      data: [],
      total: 0,
      page: 1,
      limit: 20,
      summary: { total: 0, passed: 0, failed: 0, pending: 0, averagePercentage: 0 },
    });
  });
});

describe('GET /api/results/export (quiz_results.csv, quiz_results.xlsx)', () => {
  const exportUrl = (query: string) => `${bed.progress.url}/api/results/export?${query}`;

  it('answers 401, 400 for an unknown time zone or format, and 403 for another learner’s rows', async () => {
    expect((await call('GET', '/api/results/export')).status).toBe(401);
    const zone = await call('GET', '/api/results/export?tz=Mars/Olympus', anna.token);
    expect(zone.status).toBe(400);
    expect(zone.body).toMatchObject({ field: 'tz', message: 'Неизвестный часовой пояс' });
    const format = await call('GET', '/api/results/export?format=pdf', anna.token);
    expect(format.status).toBe(400);
    expect(format.body).toMatchObject({ field: 'format', message: EXPORT_MSG.formatInvalid });
    const theirs = await call('GET', `/api/results/export?userId=${boris.user.id}`, anna.token);
    expect(theirs.status).toBe(403);
    expect(theirs.body.message).toBe(PROGRESS_MSG.notOwnResults);
  });

  it('is a CSV for Russian Excel: BOM, ; between quoted fields, formula-looking names made inert', async () => {
    const res = await download(exportUrl(`tz=Europe/Moscow&search=${tag}`), bed.as.ADMIN.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="quiz_results.csv"');
    const text = res.bytes.subarray(3).toString('utf8');
    expect(text.split('\r\n')[0]).toBe(RESULTS_CSV_HEADER.map((h) => `"${h}"`).join(';'));
    expect(text).toContain(`";=Смирнова; Анна ""Аня"" ${tag}"`);
    expect(text).toContain(`"Итоговый\nтест ${tag}"`);

    const rows = readCsv(res.bytes);
    expect(rows[0]).toEqual([...RESULTS_CSV_HEADER]);
    expect(rows).toHaveLength(5);
    const annaRows = rows.filter((r) => r[0] === anna.user.fullName);
    expect(annaRows).toHaveLength(3);
    const hrPass = annaRows.find((r) => r[1] === hr.course.title && r[8] === 'Пройден')!;
    expect(hrPass.slice(2, 7)).toEqual([hr.quiz.title, '3', '3', '100', '2']);
    expect(hrPass[7]).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
    // A name that looks like a formula is not run by the spreadsheet.
    expect(rows.find((r) => r[0].includes('HYPERLINK'))![0]).toBe(`'=HYPERLINK("http://evil") Борис ${tag}`);
  });

  it('is an XLSX with the same rows, numbers as numbers and dates as dates', async () => {
    const res = await download(exportUrl(`format=xlsx&tz=Europe/Moscow&search=${tag}`), bed.as.CURATOR.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="quiz_results.xlsx"');
    const sheet = await readXlsx(res.bytes);
    expect(sheet.rows[0]).toEqual([...RESULTS_CSV_HEADER]);
    expect(sheet.headerBold).toBe(true);
    expect(sheet.rows).toHaveLength(5);
    const hrPass = sheet.rows.find((r) => r[0] === anna.user.fullName && r[1] === hr.course.title && r[8] === 'Пройден')!;
    expect(hrPass.slice(2, 7)).toEqual([hr.quiz.title, 3, 3, 100, 2]);
    expect(hrPass[7]).toBeInstanceOf(Date);
    expect(sheet.rows.some((r) => r[0] === `=HYPERLINK("http://evil") Борис ${tag}`)).toBe(true);
  });

  it('gives a learner only their own rows, filtered like the table', async () => {
    const rows = readCsv((await download(exportUrl('status=passed'), anna.token)).bytes);
    expect(rows.slice(1).map((r) => [r[0], r[8]])).toEqual([
      [anna.user.fullName, 'Пройден'],
      [anna.user.fullName, 'Пройден'],
    ]);
    const sheet = await readXlsx((await download(exportUrl('format=xlsx'), boris.token)).bytes);
    expect(sheet.rows.slice(1).map((r) => r[0])).toEqual([boris.user.fullName]);
  });
});
