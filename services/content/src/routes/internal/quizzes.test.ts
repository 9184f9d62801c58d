import { newQuestion, type InternalQuiz, type Quiz } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { seedCourse, startContent, uniqueTitle, type ContentTestBed } from '../../testing';

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
