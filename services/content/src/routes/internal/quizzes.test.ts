import { QUIZ_MSG, newQuestion, type InternalQuiz, type Quiz, type Role } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { basedOnStored, seedCourse, startContent, uniqueTitle, type ContentTestBed } from '../../testing';

let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

const internal = (path: string, token = bed.content.ctx.config.INTERNAL_TOKEN) =>
  api<InternalQuiz>(bed.content.url, 'GET', path, { headers: { 'x-internal-token': token } });
const staff = () => bed.as.CURATOR.token;

async function createQuiz(): Promise<Quiz> {
  const questions = [{ ...newQuestion('short_answer', 'q1', 0), correctAnswer: 'Ответ', explanation: 'Потому что' }];
  return (
    await api<Quiz>(bed.content.url, 'POST', '/api/quizzes', { token: staff(), body: { title: uniqueTitle('Квиз'), questions } })
  ).body;
}

describe('GET /internal/quizzes/{id}', () => {
  it('is for other services only', async () => {
    const quiz = await createQuiz();
    expect((await api(bed.content.url, 'GET', `/internal/quizzes/${quiz.id}`)).status).toBe(403);
    expect((await api(bed.content.url, 'GET', `/internal/quizzes/${quiz.id}`, { token: bed.as.ADMIN.token })).status).toBe(403);
    expect((await internal(`/internal/quizzes/${quiz.id}`, 'wrong-token-of-some-length')).status).toBe(403);
  });

  it('answers 400 for a broken id and 404 for an unknown one', async () => {
    expect((await internal('/internal/quizzes/bad%20id!')).status).toBe(400);
    expect((await internal('/internal/quizzes/64b7f0c2a1b2c3d4e5f60718')).status).toBe(404);
  });

  it('gives the whole quiz with answers; lesson and course are null while no lesson holds it', async () => {
    const quiz = await createQuiz();
    const answer = await internal(`/internal/quizzes/${quiz.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...quiz,
      lessonId: null,
      lessonTitle: null,
      courseId: null,
      courseTitle: null,
      courseVersion: null,
    });
    expect(answer.body.questions[0]).toMatchObject({ correctAnswer: 'Ответ', explanation: 'Потому что' });
  });

  it('names the lesson holding the quiz and its course; ?lessonId= picks one of several', async () => {
    const quiz = await createQuiz();
    const course = await seedCourse(bed, { modules: [0], title: 'Курс с квизом' });
    const place = async (title: string) =>
      (
        await api(bed.content.url, 'POST', '/api/blocks', {
          token: staff(),
          body: {
            courseId: course.id,
            moduleId: course.modules[0].id,
            title,
            content: [{ type: 'quiz', content: { quizId: quiz.id, questionsCount: 1 } }],
          },
        })
      ).body.id as string;
    const first = await place('Первый урок');
    const second = await place('Второй урок');
    expect((await internal(`/internal/quizzes/${quiz.id}`)).body).toMatchObject({
      lessonId: first,
      lessonTitle: 'Первый урок',
      courseId: course.id,
      courseTitle: 'Курс с квизом',
    });
    expect((await internal(`/internal/quizzes/${quiz.id}?lessonId=${second}`)).body).toMatchObject({
      lessonId: second,
      lessonTitle: 'Второй урок',
    });
    expect((await internal(`/internal/quizzes/${quiz.id}?lessonId=64b7f0c2a1b2c3d4e5f60718`)).body).toMatchObject({
      lessonId: first,
    });
  });
});

describe('GET /internal/quizzes/{id} as a person sees it (?userId=&role=)', () => {
  /** A course of the bed's CURATOR whose one lesson holds a new quiz: published unless asked otherwise. */
  async function heldQuiz(status: 'published' | 'draft' = 'published') {
    const quiz = await createQuiz();
    const course = await seedCourse(bed, { modules: [1], status });
    const lessonId = course.modules[0].lessons[0].id;
    const path = `/api/blocks/${lessonId}`;
    const held = await api(bed.content.url, 'PATCH', path, {
      token: staff(),
      body: await basedOnStored(bed, path, {
        content: [{ id: 'qz', type: 'quiz', content: { quizId: quiz.id, questionsCount: 1 } }],
      }),
    });
    expect(held.status).toBe(200);
    return { quizId: quiz.id, courseId: course.id, lessonId };
  }
  const visibility = (quizId: string, role: Role, userId = bed.as[role].user.id) =>
    api<InternalQuiz & { message?: string; field?: string }>(
      bed.content.url,
      'GET',
      `/internal/quizzes/${quizId}?${new URLSearchParams({ userId, role })}`,
      {
        headers: { 'x-internal-token': bed.content.ctx.config.INTERNAL_TOKEN },
      },
    );

  it('is for other services only, and needs to know whose sight it is (400 naming the field)', async () => {
    const { quizId } = await heldQuiz();
    const path = `/internal/quizzes/${quizId}?userId=${bed.as.CLIENT.user.id}&role=CLIENT`;
    expect((await api(bed.content.url, 'GET', path)).status).toBe(403);
    expect((await api(bed.content.url, 'GET', path, { token: bed.as.CLIENT.token })).status).toBe(403);
    const unknown = await visibility(quizId, 'ROOT' as Role, 'u1');
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('role');
  });

  it('answers as GET /api/quizzes/{id} lets each read the quiz: a learner one of a lesson they see, its authors and ADMIN any', async () => {
    const shown = await heldQuiz();
    const drafted = await heldQuiz('draft');
    const loose = await createQuiz();
    const cases = [
      [shown.quizId, 'CLIENT'],
      [shown.quizId, 'MANAGER'],
      [drafted.quizId, 'CLIENT'],
      [drafted.quizId, 'CURATOR'],
      [drafted.quizId, 'ADMIN'],
      [loose.id, 'CANDIDATE'],
      [loose.id, 'CURATOR'],
      ['64b7f0c2a1b2c3d4e5f60718', 'CURATOR'],
    ] as const;
    // Each case: the role, whether it may see the quiz here, and what the public read answers it.
    const seen: Array<[Role, boolean, number]> = [];
    for (const [quizId, role] of cases) {
      const [internalAnswer, publicAnswer] = await Promise.all([
        visibility(quizId, role),
        api(bed.content.url, 'GET', `/api/quizzes/${quizId}`, { token: bed.as[role].token }),
      ]);
      seen.push([role, internalAnswer.status === 200, publicAnswer.status]);
      if (internalAnswer.status === 404) expect(internalAnswer.body.message).toBe(QUIZ_MSG.quizNotFound);
    }
    expect(seen).toEqual([
      ['CLIENT', true, 200],
      ['MANAGER', true, 200],
      ['CLIENT', false, 404],
      ['CURATOR', true, 200],
      ['ADMIN', true, 200],
      ['CANDIDATE', false, 404],
      ['CURATOR', true, 200],
      ['CURATOR', false, 404],
    ]);
  });

  it('follows the lesson: a quiz of a lesson turned draft is no longer a learner’s', async () => {
    const where = await heldQuiz();
    const shown = await visibility(where.quizId, 'CLIENT');
    expect([shown.status, shown.body.id, shown.body.lessonId]).toEqual([200, where.quizId, where.lessonId]);
    const path = `/api/blocks/${where.lessonId}`;
    const hidden = await api(bed.content.url, 'PATCH', path, {
      token: staff(),
      body: await basedOnStored(bed, path, { status: 'draft' }),
    });
    expect(hidden.status).toBe(200);
    expect((await visibility(where.quizId, 'CLIENT')).status).toBe(404);
    expect((await visibility(where.quizId, 'CURATOR')).status).toBe(200);
  });
});
