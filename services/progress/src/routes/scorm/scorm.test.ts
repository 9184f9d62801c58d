import {
  MSG,
  PROGRESS_MSG,
  SCORM_MSG,
  type AuthResponse,
  type CourseProgress,
  type Page,
  type ScormAttemptState,
  type ScormAttemptSummary,
  type ScormCommitInput,
} from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { seedScormCourse as seedScorm, startProgress, type ProgressTestBed, type ScormLessonSeed } from '../../testing';

let bed: ProgressTestBed;
beforeAll(async () => {
  bed = await startProgress();
});
afterAll(() => bed.close());

type Answer<T> = T & { message?: string; field?: string };
const call = <T = any>(method: string, path: string, token?: string, body?: unknown, headers?: Record<string, string>) =>
  api<Answer<T>>(bed.progress.url, method, path, { token, body, headers });

type ScormCourse = ScormLessonSeed;
const seedScormCourse = (options: { allowNewAttempt?: boolean; withText?: boolean } = {}) => seedScorm(bed, options);

const open = (course: ScormCourse, token: string, fresh?: boolean) =>
  call<ScormAttemptState>('POST', '/api/scorm/attempts', token, { courseId: course.courseId, lessonId: course.lessonId, fresh });

async function opened(course: ScormCourse, token: string): Promise<ScormAttemptState> {
  const answer = await open(course, token);
  if (answer.status !== 200) throw new Error(`open: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const commit = (id: string, token: string, body: unknown, final = false) =>
  call('POST', `/api/scorm/attempts/${id}/commit${final ? '?final=true' : ''}`, token, body);

/** A commit as scorm-again renders it for a SCORM 2004 SCO (renderCommonCommitFields, includeCommitSequence). */
function commit2004(
  commitSequence: number,
  cmi: Record<string, unknown> = {},
  { completionStatus = 'incomplete', successStatus = 'unknown', raw = 40 } = {},
): ScormCommitInput {
  return {
    completionStatus,
    successStatus,
    totalTimeSeconds: 0,
    runtimeData: {
      cmi: {
        completion_status: completionStatus,
        success_status: successStatus,
        location: '',
        suspend_data: '',
        exit: '',
        session_time: 'PT1M30S',
        score: { raw: String(raw), min: '0', max: '100', scaled: String(raw / 100) },
        interactions: {
          '0': {
            id: 'q1',
            type: 'choice',
            learner_response: 'b',
            result: 'correct',
            latency: 'PT5S',
            correct_responses: { '0': { pattern: 'b' } },
          },
        },
        ...cmi,
      },
    },
    score: { raw, min: 0, max: 100, scaled: raw / 100 },
    globalObjectives: {},
    commitSequence,
  };
}

const storedAttempt = (id: string) => bed.store.scormAttempts.findById(id).lean();

describe('POST /api/scorm/attempts', () => {
  let course: ScormCourse;
  beforeAll(async () => {
    course = await seedScormCourse({ withText: true });
  });

  it('answers 401 without a token, 403 to course authors and 400 naming a malformed id, starting nothing', async () => {
    expect(
      (await call('POST', '/api/scorm/attempts', undefined, { courseId: course.courseId, lessonId: course.lessonId })).status,
    ).toBe(401);
    const curator = await open(course, bed.as.CURATOR.token);
    expect(curator.status).toBe(403);
    expect(curator.body.message).toBe(MSG.forbidden);
    const me = await bed.learner();
    const bad = await call('POST', '/api/scorm/attempts', me.token, { courseId: course.courseId, lessonId: 'нет такого!' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('lessonId');
    expect(await bed.store.scormAttempts.countDocuments({ lessonId: course.lessonId })).toBe(0);
  });

  it('answers 404 for a lesson without a package and for a lesson outside the course', async () => {
    const me = await bed.learner();
    const text = await call('POST', '/api/scorm/attempts', me.token, {
      courseId: course.courseId,
      lessonId: course.textLessonId,
    });
    expect(text.status).toBe(404);
    expect(text.body.message).toBe(SCORM_MSG.packageNotFound);
    const other = await seedScormCourse();
    const elsewhere = await call('POST', '/api/scorm/attempts', me.token, {
      courseId: course.courseId,
      lessonId: other.lessonId,
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.message).toBe(PROGRESS_MSG.lessonNotFound);
    expect(await bed.store.scormAttempts.countDocuments({ userId: me.user.id })).toBe(0);
  });

  it('starts attempt 1 from the beginning, and the same attempt the next time', async () => {
    const me = await bed.learner();
    const first = await opened(course, me.token);
    expect(first).toMatchObject({
      courseId: course.courseId,
      lessonId: course.lessonId,
      scoId: course.scoId,
      packageId: course.packageId,
      number: 1,
      entry: 'ab-initio',
      cmi: null,
      sequence: 0,
      completed: false,
      mayStartNew: false,
    });
    expect((await opened(course, me.token)).id).toBe(first.id);
    expect(await bed.store.scormAttempts.countDocuments({ userId: me.user.id })).toBe(1);
  });

  it('makes one attempt of ten simultaneous first opens', async () => {
    const me = await bed.learner();
    const answers = await Promise.all(Array.from({ length: 10 }, () => open(course, me.token)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await bed.store.scormAttempts.countDocuments({ userId: me.user.id, lessonId: course.lessonId })).toBe(1);
  });

  it('resumes where the learner left: the committed tree, with entry resume', async () => {
    const me = await bed.learner();
    const attempt = await opened(course, me.token);
    const left = commit2004(1, { location: 'page3', suspend_data: 'visited=1,2,3', exit: 'suspend' });
    expect((await commit(attempt.id, me.token, left, true)).status).toBe(200);
    const resumed = await opened(course, me.token);
    expect(resumed).toMatchObject({ id: attempt.id, number: 1, entry: 'resume', sequence: 1 });
    expect(resumed.cmi).toMatchObject({ location: 'page3', suspend_data: 'visited=1,2,3', entry: 'resume' });
  });
});

describe('POST /api/scorm/attempts/{id}/commit', () => {
  let course: ScormCourse;
  beforeAll(async () => {
    course = await seedScormCourse({ withText: true });
  });

  it('stores a commit once: the same sequence again and a lower one change nothing, and both are answered as stored', async () => {
    const me = await bed.learner();
    const attempt = await opened(course, me.token);
    const second = commit2004(2, { location: 'page2' }, { raw: 60 });
    for (let i = 0; i < 2; i++) {
      const answer = await commit(attempt.id, me.token, second);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ result: true, errorCode: 0 });
    }
    const late = await commit(attempt.id, me.token, commit2004(1, { location: 'page1' }, { raw: 10 }));
    expect(late.body).toEqual({ result: true, errorCode: 0 });
    const stored = await storedAttempt(attempt.id);
    expect(stored).toMatchObject({
      sequence: 2,
      completionStatus: 'incomplete',
      score: { raw: 60, min: 0, max: 100, scaled: 0.6 },
      sessionTimeSeconds: 90,
      interactions: [{ id: 'q1', type: 'choice', response: 'b', result: 'correct', latency: 5, correctResponses: ['b'] }],
      completedAt: null,
      ended: false,
    });
    expect(JSON.parse(stored!.cmi)).toMatchObject({ cmi: { location: 'page2' } });
  });

  it('answers 404 to another learner, 401 without a token and 400 for a body without a sequence, changing nothing', async () => {
    const me = await bed.learner();
    const attempt = await opened(course, me.token);
    const stranger = await bed.learner('CLIENT', 'Пётр Чужой');
    const foreign = await commit(attempt.id, stranger.token, commit2004(5));
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(SCORM_MSG.attemptNotFound);
    expect((await commit(attempt.id, '', commit2004(5))).status).toBe(401);
    const { commitSequence: _dropped, ...unsequenced } = commit2004(5);
    const bad = await commit(attempt.id, me.token, unsequenced);
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('commitSequence');
    expect(await storedAttempt(attempt.id)).toMatchObject({ sequence: 0, cmi: '' });
  });

  it('reads SCORM 1.2: student_response, a clock latency and lesson_status passed', async () => {
    const me = await bed.learner();
    const attempt = await opened(course, me.token);
    const body: ScormCommitInput = {
      successStatus: 'passed',
      completionStatus: 'completed',
      totalTimeSeconds: 0,
      score: { raw: 50, max: 100 },
      commitSequence: 1,
      runtimeData: {
        cmi: {
          suspend_data: '',
          core: {
            lesson_location: 'p2',
            lesson_status: 'passed',
            exit: '',
            session_time: '00:01:00',
            score: { raw: '50', min: '', max: '100' },
          },
          interactions: {
            '0': { id: 'i1', type: 'choice', student_response: 'b', result: 'wrong', latency: '00:00:07', correct_responses: {} },
          },
        },
      },
    };
    expect((await commit(attempt.id, me.token, body)).status).toBe(200);
    expect(await storedAttempt(attempt.id)).toMatchObject({
      score: { raw: 50, min: null, max: 100, scaled: null },
      sessionTimeSeconds: 60,
      interactions: [{ id: 'i1', response: 'b', result: 'wrong', latency: 7, correctResponses: [] }],
    });
    const resumed = await opened(course, me.token);
    expect(resumed.entry).toBe('resume');
    expect(resumed.cmi).toMatchObject({ core: { lesson_location: 'p2', entry: 'resume' } });
  });

  it('a completed SCO completes its lesson once; the manual «Завершить урок» of a SCORM lesson is refused', async () => {
    const me = await bed.learner();
    const manual = await call('POST', `/api/progress/lesson/${course.lessonId}/complete`, me.token, {
      courseId: course.courseId,
    });
    expect(manual.status).toBe(409);
    expect(manual.body.message).toBe(SCORM_MSG.lessonIsScorm);
    expect(await bed.store.completions.countDocuments({ userId: me.user.id })).toBe(0);

    const attempt = await opened(course, me.token);
    const done = commit2004(1, {}, { completionStatus: 'completed', successStatus: 'passed', raw: 90 });
    expect((await commit(attempt.id, me.token, done, true)).status).toBe(200);
    expect((await commit(attempt.id, me.token, { ...done, commitSequence: 2 })).status).toBe(200);
    expect(await bed.store.completions.countDocuments({ userId: me.user.id, lessonId: course.lessonId })).toBe(1);
    const stored = await storedAttempt(attempt.id);
    expect(stored).toMatchObject({ ended: true, sequence: 2 });
    expect(stored!.completedAt).toBeInstanceOf(Date);

    const progress = await call<CourseProgress>('GET', `/api/progress/course/${course.courseId}`, me.token);
    expect(progress.body).toMatchObject({ completedLessons: 1, totalLessons: 2, isCompleted: false });
    expect(progress.body.completedLessonIds).toEqual([course.lessonId]);
    // The state says it is done, and this lesson allows no new attempt.
    expect(await opened(course, me.token)).toMatchObject({ id: attempt.id, completed: true, mayStartNew: false });
    const fresh = await open(course, me.token, true);
    expect(fresh.status).toBe(409);
    expect(fresh.body.message).toBe(SCORM_MSG.newAttemptNotAllowed);
    expect(await bed.store.scormAttempts.countDocuments({ userId: me.user.id })).toBe(1);
  });

  it('completes a one-lesson course, which earns its certificate as a native lesson does', async () => {
    const single = await seedScormCourse({ allowNewAttempt: true });
    const me = await bed.learner('CLIENT');
    const attempt = await opened(single, me.token);
    const done = commit2004(1, {}, { completionStatus: 'completed', successStatus: 'passed', raw: 100 });
    expect((await commit(attempt.id, me.token, done, true)).status).toBe(200);
    const progress = await call<CourseProgress>('GET', `/api/progress/course/${single.courseId}`, me.token);
    expect(progress.body).toMatchObject({ isCompleted: true, percentage: 100 });
    expect(await bed.store.courseCompletions.countDocuments({ userId: me.user.id, courseId: single.courseId })).toBe(1);
    const certificate = await call('POST', '/api/certificates', me.token, { courseId: single.courseId });
    expect(certificate.status).toBe(201);

    // This lesson allows a new attempt after a completed one: number 2, from the beginning.
    const next = await open(single, me.token, true);
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ number: 2, entry: 'ab-initio', cmi: null, completed: false });
    expect(await bed.store.scormAttempts.countDocuments({ userId: me.user.id })).toBe(2);
  });
});

describe('GET /api/scorm/attempts', () => {
  let course: ScormCourse;
  let learners: AuthResponse[];
  beforeAll(async () => {
    course = await seedScormCourse();
    learners = [
      await bed.learner('CLIENT', 'Анна Первая'),
      await bed.learner('CLIENT', 'Борис Второй'),
      await bed.learner('CLIENT', 'Вера Третья'),
    ];
    for (const [i, learner] of learners.entries()) {
      const attempt = await opened(course, learner.token);
      await commit(attempt.id, learner.token, commit2004(1, {}, { raw: 10 * (i + 1) }));
    }
  });

  const list = (token: string, query: string) => call<Page<ScormAttemptSummary>>('GET', `/api/scorm/attempts?${query}`, token);

  it("gives the course's author every learner's attempts, a page at a time, with names, scores and interactions", async () => {
    const first = await list(bed.as.CURATOR.token, `courseId=${course.courseId}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(first.body.data).toHaveLength(2);
    const second = await list(bed.as.CURATOR.token, `courseId=${course.courseId}&limit=2&page=2`);
    expect(second.body.data).toHaveLength(1);
    const all = [...first.body.data, ...second.body.data];
    expect(all.map((a) => a.userName).sort()).toEqual(['Анна Первая', 'Борис Второй', 'Вера Третья']);
    expect(all.find((a) => a.userName === 'Борис Второй')).toMatchObject({
      lessonId: course.lessonId,
      lessonTitle: 'Гольф: правила',
      number: 1,
      score: { raw: 20, max: 100 },
      interactions: [{ id: 'q1', result: 'correct' }],
      completedAt: null,
    });
    const admin = await list(bed.as.ADMIN.token, `courseId=${course.courseId}&lessonId=${course.lessonId}`);
    expect(admin.body.total).toBe(3);
  });

  it("gives a learner their own attempts only, 403 for someone else's, and another curator none", async () => {
    const [anna, boris] = learners;
    const own = await list(anna.token, `courseId=${course.courseId}`);
    expect(own.body.total).toBe(1);
    expect(own.body.data[0].userId).toBe(anna.user.id);
    const foreign = await list(anna.token, `userId=${boris.user.id}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toBe(PROGRESS_MSG.notOwnResults);
    // A curator who is no author of the course.
    const stranger = await userWithRole(bed.auth, 'CURATOR', 'Куратор Чужой');
    const none = await list(stranger.token, `courseId=${course.courseId}`);
    expect(none.status).toBe(200);
    expect(none.body.total).toBe(0);
  });

  it("exports the attempts a reader sees, one row each, with the package's score and answers", async () => {
    const file = await fetch(`${bed.progress.url}/api/scorm/attempts/export?courseId=${course.courseId}`, {
      headers: { authorization: `Bearer ${bed.as.CURATOR.token}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('scorm_attempts.csv');
    const lines = (await file.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain('Имя');
    const boris = lines.find((l) => l.includes('Борис Второй'))!;
    expect(boris).toContain('Гольф: правила');
    expect(boris).toContain('Не завершён');
    expect(boris).toContain('"20";"0";"100";"0,2"');
    const own = await fetch(`${bed.progress.url}/api/scorm/attempts/export?courseId=${course.courseId}`, {
      headers: { authorization: `Bearer ${learners[0].token}` },
    });
    expect((await own.text()).trim().split(/\r?\n/)).toHaveLength(2);
  });

  it("gives the course's author the item analysis of the package's interactions, and refuses learners and other curators", async () => {
    const query = `courseId=${course.courseId}&lessonId=${course.lessonId}`;
    const analysis = await call('GET', `/api/scorm/attempts/analysis?${query}`, bed.as.CURATOR.token);
    expect(analysis.status).toBe(200);
    expect(analysis.body).toEqual({
      courseId: course.courseId,
      lessonId: course.lessonId,
      attempts: 3,
      interactions: [{ id: 'q1', type: 'choice', answered: 3, correct: 3, correctPercentage: 100, averageLatency: 5 }],
    });
    expect((await call('GET', `/api/scorm/attempts/analysis?${query}`, learners[0].token)).status).toBe(403);
    const stranger = await userWithRole(bed.auth, 'CURATOR', 'Куратор Другой');
    expect((await call('GET', `/api/scorm/attempts/analysis?${query}`, stranger.token)).status).toBe(403);
  });

  it('answers 401 without a token and 400 for a page size over the limit', async () => {
    expect((await call('GET', '/api/scorm/attempts')).status).toBe(401);
    const bad = await list(bed.as.ADMIN.token, 'limit=500');
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('limit');
  });
});

describe('what the service holds about a person', () => {
  it("gives a learner's SCORM attempts in their data, and anonymisation leaves the alias in the attempt and its tree", async () => {
    const course = await seedScormCourse();
    const me = await bed.learner('CLIENT', 'Ольга Забытая');
    const attempt = await opened(course, me.token);
    await commit(attempt.id, me.token, commit2004(1, { learner_name: 'Ольга Забытая', learner_id: me.user.id }));
    const internal = { 'x-internal-token': bed.progress.ctx.config.INTERNAL_TOKEN };
    const collected = await call('GET', `/internal/subjects/${me.user.id}`, undefined, undefined, internal);
    expect(collected.status).toBe(200);
    expect(collected.body['Попытки SCORM-уроков']).toHaveLength(1);
    const forgotten = await call(
      'POST',
      `/internal/subjects/${me.user.id}/anonymise`,
      undefined,
      { alias: 'Пользователь 17' },
      internal,
    );
    expect(forgotten.status).toBe(200);
    expect(forgotten.body['Попытки SCORM-уроков']).toBe(1);
    const stored = await storedAttempt(attempt.id);
    expect(stored!.userName).toBe('Пользователь 17');
    expect(stored!.cmi).not.toContain('Ольга');
    expect(JSON.parse(stored!.cmi)).toMatchObject({ cmi: { learner_name: 'Пользователь 17', location: '' } });
  });
});
