import type { QuizAnalysisReport } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { presentQuestions } from '../../commands/grading';
import { question, seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

/** «Анализ вопросов» (docs/decisions/036): the indexes of a seeded set, worked out by hand below. */
let bed: ProgressTestBed;
let seeded: SeededCourse;

const QUESTIONS = [
  question({
    id: 'vac',
    type: 'single_choice',
    question: 'Сколько дней отпуска?',
    options: ['14', '28', '56'],
    correctAnswers: [1],
    order: 0,
  }),
  question({ id: 'tf', type: 'true_false', question: 'Испытательный срок до 3 месяцев', correctAnswer: 'true', order: 1 }),
  question({ id: 'law', type: 'short_answer', question: 'Главный закон о труде', correctAnswer: 'Трудовой кодекс', order: 2 }),
  // The deliberately bad question: the key is «Верный», but the stronger learners all pick «Ловушка».
  question({
    id: 'bad',
    type: 'single_choice',
    question: 'Плохой вопрос',
    options: ['Верный', 'Ловушка'],
    correctAnswers: [0],
    order: 3,
  }),
];

/**
 * Six learners (rows) × four questions, 1 = right. Totals 3, 3, 2, 1, 0, 1 of 4 → 75, 75, 50, 25, 0, 25 %.
 *            vac  tf  law  bad
 *   L1        1    1   1    0     vac answers: L5 «14», L6 «56», others «28»
 *   L2        1    1   1    0     tf: L1–L3 «true», L4–L6 «false»
 *   L3        1    1   0    0     law: L1, L2 «Трудовой кодекс», others «ГК»
 *   L4        1    0   0    0     bad: L6 «Верный», L1–L5 «Ловушка»
 *   L5        0    0   0    0
 *   L6        0    0   0    1
 */
const RIGHT = [
  [1, 1, 1, 0],
  [1, 1, 1, 0],
  [1, 1, 0, 0],
  [1, 0, 0, 0],
  [0, 0, 0, 0],
  [0, 0, 0, 1],
];
const ANSWERS: unknown[][] = [
  [1, 'true', 'Трудовой кодекс', 1],
  [1, 'true', 'Трудовой кодекс', 1],
  [1, 'true', 'ГК', 1],
  [1, 'false', 'ГК', 1],
  [0, 'false', 'ГК', 1],
  [2, 'false', 'ГК', 0],
];
/** Seconds on each question: vac 10..60 (median 35), the others 5 each. */
const TIME = (learner: number, q: number) => (q === 0 ? (learner + 1) * 10 : 5);

beforeAll(async () => {
  bed = await startProgress();
  seeded = await seedQuizCourse(bed, { questions: QUESTIONS });
  const questions = presentQuestions(QUESTIONS, { randomizeQuestions: false, randomizeAnswers: false }, 'seed');
  const completed = Date.now();
  await bed.store.attempts.insertMany(
    RIGHT.map((row, l) => {
      const score = row.reduce((s, v) => s + v, 0);
      return {
        userId: `learner-${l}`,
        userName: `Ученик ${l + 1}`,
        quizId: seeded.quiz.id,
        quizTitle: seeded.quiz.title,
        courseId: seeded.course.id,
        courseTitle: seeded.course.title,
        lessonId: seeded.quizLessonId,
        attemptNumber: 1,
        status: score / 4 >= 0.7 ? 'passed' : 'failed',
        passingScore: 70,
        maxAttempts: 3,
        showExplanations: 'after_submission',
        startedAt: new Date(completed - 60_000),
        completedAt: new Date(completed - l * 1000),
        questions,
        answers: QUESTIONS.map((q, i) => ({
          questionId: q.id,
          answer: ANSWERS[l][i],
          isCorrect: row[i] === 1,
          points: row[i],
          timeSpent: TIME(l, i),
          late: false,
        })),
        score,
        maxScore: 4,
        percentage: (score / 4) * 100,
      };
    }),
  );
});
afterAll(() => bed.close());

const analysis = (token?: string, quizId = seeded.quiz.id) =>
  api<QuizAnalysisReport & { message?: string }>(bed.progress.url, 'GET', `/api/results/analysis/${quizId}`, { token });

describe('item analysis', () => {
  it('gives the histogram, facility, discrimination, choices, median time and flags worked out by hand', async () => {
    const { status, body } = await analysis(bed.as.CURATOR.token);
    expect(status).toBe(200);
    expect(body).toMatchObject({ quizId: seeded.quiz.id, sampleSize: 6, totalAttempts: 6, sampleLimit: 500 });
    // 75, 75, 50, 25, 0, 25 %
    expect(body.histogram.filter((b) => b.count).map((b) => [b.from, b.to, b.count])).toEqual([
      [0, 9, 1],
      [20, 29, 2],
      [50, 59, 1],
      [70, 79, 2],
    ]);
    const item = (id: string) => body.items.find((i) => i.questionId === id)!;
    expect(body.items.map((i) => i.questionId)).toEqual(['vac', 'tf', 'law', 'bad']);

    // vac: 4 of 6 → 66.7 %. Rest of test 2,2,1,0,0,1 (mean 1); item mean 2/3.
    // Σdx·dy = 1, Σdx² = 4/3, Σdy² = 4 → r = 1 / √(16/3) = 0.433.
    expect(item('vac')).toMatchObject({ attempts: 6, facility: 66.7, discrimination: 0.43, medianTime: 35, flags: [] });
    expect(item('vac').options).toEqual([
      { label: '14', count: 1, correct: false },
      { label: '28', count: 4, correct: true },
      { label: '56', count: 1, correct: false },
    ]);
    // tf: 3 of 6 → 50 %. Rest 2,2,1,1,0,1 (mean 7/6). Σdx·dy = 1.5, Σdx² = 1.5, Σdy² = 17/6 → r = 1.5/√4.25 = 0.728.
    expect(item('tf')).toMatchObject({ facility: 50, discrimination: 0.73, medianTime: 5, flags: [] });
    expect(item('tf').options.map((o) => [o.label, o.count])).toEqual([
      ['Верно', 3],
      ['Неверно', 3],
    ]);
    // law: 2 of 6 → 33.3 %. Rest 2,2,2,1,0,1 (mean 4/3). Σdx·dy = 4/3, Σdx² = 4/3, Σdy² = 10/3 → r = √(4/10) = 0.632.
    expect(item('law')).toMatchObject({ facility: 33.3, discrimination: 0.63, options: [], flags: [] });
    // bad: 1 of 6 → 16.7 % (≤ 20: too hard). Rest 3,3,2,1,0,0 (mean 1.5). Σdx·dy = −1.5, Σdx² = 5/6,
    // Σdy² = 9.5 → r = −1.5/√(95/12) = −0.533 (< 0.2: does not discriminate); «Ловушка» 5 > «Верный» 1.
    expect(item('bad')).toMatchObject({
      facility: 16.7,
      discrimination: -0.53,
      flags: ['too_hard', 'not_discriminating', 'distractor_beats_key'],
    });
    expect(item('bad').options).toEqual([
      { label: 'Верный', count: 1, correct: true },
      { label: 'Ловушка', count: 5, correct: false },
    ]);
  });

  it("is for ADMIN and the course's curators: another curator is 403, learners 403, no token 401, a bad id 400", async () => {
    expect((await analysis(bed.as.ADMIN.token)).status).toBe(200);
    const stranger = await userWithRole(bed.auth, 'CURATOR', 'Ольга Сторонняя');
    expect(await analysis(stranger.token)).toMatchObject({
      status: 403,
      body: { message: 'Статистику квиза видят только автор его курса, соавторы и администратор' },
    });
    for (const role of ['MANAGER', 'CLIENT', 'CANDIDATE'] as const) expect((await analysis(bed.as[role].token)).status).toBe(403);
    expect((await analysis()).status).toBe(401);
    const bad = await analysis(bed.as.CURATOR.token, 'не-id');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/[а-я]/i);
    expect((await analysis(bed.as.CURATOR.token, '0123456789abcdef01234567')).status).toBe(404);
  });
});
