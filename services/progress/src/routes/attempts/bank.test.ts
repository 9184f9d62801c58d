import type { AttemptDetail, BankQuestion, Quiz, QuizCard, StartedAttempt } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { question, seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

/**
 * Questions drawn from the course's bank: each attempt its own draw, stored with
 * it, so its review shows exactly what was asked, graded on the drawn questions; no answer leaks.
 */
let bed: ProgressTestBed;
let seeded: SeededCourse;
/** Bank question id → its right option («Да» or «Нет») */
const rightOption = new Map<string, string>();

const call = <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<T>(bed.progress.url, method, path, { token, body });

beforeAll(async () => {
  bed = await startProgress();
  seeded = await seedQuizCourse(bed, {
    questions: [question({ id: 'fixed', type: 'true_false', question: 'Постоянный вопрос', correctAnswer: 'true' })],
    // Right answers revealed only once the learner has passed or used every attempt.
    settings: { maxAttempts: 5, passingScore: 100, showCorrectAnswers: 'after_pass_or_last' },
  });
  const bank = `/api/courses/${seeded.course.id}/bank`;
  for (let i = 0; i < 8; i++) {
    const right = i % 2;
    const { status, body } = await api<BankQuestion>(bed.content.url, 'POST', bank, {
      token: bed.as.CURATOR.token,
      body: {
        tags: [i < 6 ? 'пожарная безопасность' : 'первая помощь'],
        question: { type: 'single_choice', question: `Банк ${i}`, options: ['Да', 'Нет'], correctAnswers: [right] },
      },
    });
    if (status !== 201) throw new Error(`bank: ${status}`);
    rightOption.set(body.question.id, right ? 'Нет' : 'Да');
  }
  const quiz = await api<Quiz>(bed.content.url, 'PATCH', `/api/quizzes/${seeded.quiz.id}`, {
    token: bed.as.CURATOR.token,
    body: {
      version: seeded.quiz.version,
      draws: [
        { tag: 'пожарная безопасность', count: 2 },
        { tag: 'первая помощь', count: 1 },
      ],
    },
  });
  if (quiz.status !== 200) throw new Error(`quiz: ${quiz.status} ${JSON.stringify(quiz.body)}`);
});
afterAll(() => bed.close());

const start = (token: string) =>
  call<StartedAttempt>('POST', '/api/attempts', token, {
    quizId: seeded.quiz.id,
    courseId: seeded.course.id,
    lessonId: seeded.quizLessonId,
  });

const LEAK = /correctAnswer|"explanation"|"blanks"|"pairs"|"tolerance"|"areas"/;

describe('questions drawn from the bank', () => {
  it('the quiz card says how many questions an attempt will have: the fixed ones and the draw', async () => {
    const me = await bed.learner();
    const card = await call<QuizCard>('GET', `/api/attempts/quiz/${seeded.quiz.id}`, me.token);
    expect(card.status).toBe(200);
    expect(card.body.quiz.questionsCount).toBe(4);
    expect((await start(me.token)).body.questions).toHaveLength(card.body.quiz.questionsCount);
  });

  it('each attempt draws its own questions; the review shows exactly those; grading uses them; no answer before reveal', async () => {
    const me = await bed.learner();
    const asked: string[][] = [];
    for (let n = 0; n < 4; n++) {
      const started = await start(me.token);
      expect(started.status).toBe(201);
      const ids = started.body.questions.map((q) => q.id);
      // One fixed question, two of the six «пожарная безопасность», one of the two «первая помощь».
      expect(ids[0]).toBe('fixed');
      expect(ids).toHaveLength(4);
      expect(new Set(ids).size).toBe(4);
      expect(ids.slice(1).every((id) => rightOption.has(id))).toBe(true);
      expect(JSON.stringify(started.body)).not.toMatch(LEAK);

      // Resuming shows the same draw.
      const resumed = await start(me.token);
      expect(resumed.body.questions.map((q) => q.id)).toEqual(ids);

      // Every drawn question answered rightly except the first of them: graded on the drawn questions.
      const answers = started.body.questions.map((q, i) => ({
        questionId: q.id,
        answer:
          q.id === 'fixed'
            ? 'true'
            : q.options.indexOf(i === 1 ? (rightOption.get(q.id) === 'Да' ? 'Нет' : 'Да') : rightOption.get(q.id)!),
      }));
      const result = await call<AttemptDetail>('POST', `/api/attempts/${started.body.attempt.id}/submit`, me.token, { answers });
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ score: 3, maxScore: 4, status: 'failed' });
      // Failed, attempts left: the results name no right answer yet.
      expect(result.body.correctAnswersRevealed).toBe(false);
      expect(result.body.questions.map((q) => q.correctAnswerText)).toEqual([null, null, null, null]);

      const review = await call<AttemptDetail>('GET', `/api/attempts/${started.body.attempt.id}`, me.token);
      expect(review.body.questions.map((q) => q.questionId)).toEqual(ids);
      asked.push(ids);
    }
    // Four attempts did not all draw the same questions (the chance they would is under 1 in 1,000).
    expect(new Set(asked.map((ids) => [...ids].sort().join())).size).toBeGreaterThan(1);

    // Deleting a drawn question from the bank changes no attempt's review.
    const [firstAttempt] = (await call<{ data: Array<{ id: string }> }>('GET', `/api/results?limit=10`, me.token)).body.data;
    const before = await call<AttemptDetail>('GET', `/api/attempts/${firstAttempt.id}`, me.token);
    const drawnId = before.body.questions[1].questionId.replace('bank-', '');
    const removed = await api(bed.content.url, 'DELETE', `/api/courses/${seeded.course.id}/bank/${drawnId}`, {
      token: bed.as.CURATOR.token,
    });
    expect(removed.status).toBe(204);
    const after = await call<AttemptDetail>('GET', `/api/attempts/${firstAttempt.id}`, me.token);
    expect(after.body.questions.map((q) => [q.questionId, q.question])).toEqual(
      before.body.questions.map((q) => [q.questionId, q.question]),
    );
  });

  it('the learner view of the quiz holds no bank question and no answer', async () => {
    const me = await bed.learner();
    const view = await api(bed.content.url, 'GET', `/api/quizzes/${seeded.quiz.id}`, { token: me.token });
    expect(view.status).toBe(200);
    expect(view.body.questions.map((q: { id: string }) => q.id)).toEqual(['fixed']);
    expect(JSON.stringify(view.body)).not.toMatch(LEAK);
  });
});
