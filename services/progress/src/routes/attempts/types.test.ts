import type { AttemptDetail, LearnerQuiz, StartedAttempt } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { question, seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

/** The six types the quiz engine added (docs/decisions/032): what reaches a learner, and how they are graded. */
let bed: ProgressTestBed;
beforeAll(async () => {
  bed = await startProgress();
});
afterAll(() => bed.close());

const call = <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<T>(bed.progress.url, method, path, { token, body });
const start = (token: string, s: SeededCourse) =>
  call<StartedAttempt>('POST', '/api/attempts', token, { quizId: s.quiz.id, courseId: s.course.id, lessonId: s.quizLessonId });

const NEW_TYPES = [
  question({ id: 'num', type: 'numeric', question: 'Ставка, %', correctAnswer: '137,5', tolerance: 0.25, order: 0 }),
  question({
    id: 'sc',
    type: 'scale',
    question: 'Насколько понятен курс?',
    options: ['Непонятен', 'Скорее непонятен', 'Скорее понятен', 'Понятен'],
    order: 1,
  }),
  question({
    id: 'mx',
    type: 'matrix',
    question: 'Чем тушить',
    rows: ['Электропроводка', 'Бумага', 'Масло'],
    options: ['Вода', 'Углекислотный огнетушитель', 'Песок'],
    correctAnswers: [1, 0, 2],
    order: 2,
  }),
  question({
    id: 'hs',
    type: 'hotspot',
    question: 'Где эвакуационный выход?',
    image: '/api/files/00000000-0000-4000-8000-000000000000.png',
    imageAlt: 'План этажа: коридор, две двери',
    areas: [{ shape: 'rect', x: 71.5, y: 12.25, width: 9.5, height: 20.75 }],
    order: 3,
  }),
  question({
    id: 'il',
    type: 'image_labels',
    question: 'Подпишите части огнетушителя',
    image: '/api/files/00000000-0000-4000-8000-000000000001.png',
    markers: [
      { x: 10, y: 10, label: 'Раструб' },
      { x: 50, y: 40, label: 'Чека' },
      { x: 80, y: 90, label: 'Баллон' },
    ],
    order: 4,
  }),
  question({ id: 'fu', type: 'file_upload', question: 'Приложите акт проверки', order: 5 }),
];
/** Nothing here may reach a learner before the reveal: values, tolerances, areas, the right columns. */
const SECRETS = ['137,5', '0.25', '71.5', '12.25', '20.75', 'areas', 'tolerance', 'correctAnswer', '"label"'];

describe('the six new question types', () => {
  it('reach the learner (quiz view and attempt) without a single right answer', async () => {
    const seeded = await seedQuizCourse(bed, { questions: NEW_TYPES, settings: { maxAttempts: 3 } });
    const me = await bed.learner();
    const view = await api<LearnerQuiz>(bed.content.url, 'GET', `/api/quizzes/${seeded.quiz.id}`, { token: me.token });
    expect(view.status).toBe(200);
    const { body, status } = await start(me.token, seeded);
    expect(status).toBe(201);
    for (const shown of [view.body, body]) {
      const text = JSON.stringify(shown.questions);
      for (const secret of SECRETS) expect(text).not.toContain(secret);
    }
    const byId = Object.fromEntries(body.questions.map((q) => [q.id, q]));
    expect(byId.mx).toMatchObject({
      rows: ['Электропроводка', 'Бумага', 'Масло'],
      options: ['Вода', 'Углекислотный огнетушитель', 'Песок'],
    });
    expect(byId.hs).toMatchObject({ image: NEW_TYPES[3].image, imageAlt: 'План этажа: коридор, две двери' });
    expect(byId.il.markers).toEqual([
      { x: 10, y: 10 },
      { x: 50, y: 40 },
      { x: 80, y: 90 },
    ]);
    expect([...byId.il.labels!].sort()).toEqual(['Баллон', 'Раструб', 'Чека']);
    expect(byId.il.labels).not.toEqual(['Раструб', 'Чека', 'Баллон']);
    expect(byId.sc.options).toHaveLength(4);
  });

  it('are graded on the server with points and partial credit; right answers stay hidden until the policy allows', async () => {
    const seeded = await seedQuizCourse(bed, { questions: NEW_TYPES, settings: { maxAttempts: 3, scoring: 'proportional' } });
    const me = await bed.learner();
    const { body } = await start(me.token, seeded);
    const labels = body.questions.find((q) => q.id === 'il')!.labels!;
    const answers = [
      { questionId: 'num', answer: '137,3' }, // within the tolerance, with a decimal comma
      { questionId: 'sc', answer: 3 },
      { questionId: 'mx', answer: { 0: 1, 1: 0, 2: 0 } }, // two rows of three
      { questionId: 'hs', answer: { x: 75, y: 20 } },
      { questionId: 'il', answer: { 0: labels.indexOf('Раструб'), 1: labels.indexOf('Баллон'), 2: labels.indexOf('Чека') } },
      { questionId: 'fu', answer: null },
    ];
    const submitted = await call<AttemptDetail>('POST', `/api/attempts/${body.attempt.id}/submit`, me.token, { answers });
    expect(submitted.status).toBe(200);
    // numeric 1 + matrix 2/3 + hotspot 1 + labels 1/3 of 5 points (the scale is worth none): 3 of 5 = 60 %.
    expect(submitted.body).toMatchObject({
      score: 3,
      maxScore: 5,
      percentage: 60,
      status: 'failed',
      correctAnswersRevealed: false,
    });
    const results = Object.fromEntries(submitted.body.questions.map((q) => [q.questionId, q]));
    expect(results.num).toMatchObject({ isCorrect: true, answerText: '137,3' });
    expect(results.sc).toMatchObject({ isCorrect: false, answerText: '4 — Понятен' });
    expect(results.mx).toMatchObject({
      isCorrect: false,
      answerText: 'Электропроводка — Углекислотный огнетушитель; Бумага — Вода; Масло — Вода',
    });
    expect(results.hs.isCorrect).toBe(true);
    expect(submitted.body.questions.every((q) => q.correctAnswerText === null)).toBe(true);
    const reread = await call<AttemptDetail>('GET', `/api/attempts/${body.attempt.id}`, me.token);
    for (const secret of ['Масло — Песок', 'Точка 2 — Чека', '137,5']) expect(JSON.stringify(reread.body)).not.toContain(secret);
    // Staff see them.
    const staff = await call<AttemptDetail>('GET', `/api/attempts/${body.attempt.id}`, bed.as.CURATOR.token);
    expect(staff.body.questions.find((q) => q.questionId === 'mx')?.correctAnswerText).toContain('Масло — Песок');
  });

  it('refuses an answer that cannot belong to its question (400, in Russian) and keeps the attempt open', async () => {
    const seeded = await seedQuizCourse(bed, { questions: NEW_TYPES });
    const me = await bed.learner();
    const { body } = await start(me.token, seeded);
    for (const [questionId, answer] of [
      ['hs', { x: 140, y: 20 }],
      ['mx', { 0: 7 }],
      ['sc', 9],
      ['fu', 'https://example.com/акт.pdf'],
    ] as const) {
      const refused = await call('POST', `/api/attempts/${body.attempt.id}/submit`, me.token, {
        answers: [{ questionId, answer }],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^Ответ не подходит к вопросу «/);
    }
    expect((await call<AttemptDetail>('GET', `/api/attempts/${body.attempt.id}`, me.token)).body.status).toBe('in_progress');
  });

  it('are held to their shape when the quiz is saved', async () => {
    const bad = await api(bed.content.url, 'POST', '/api/quizzes', {
      token: bed.as.CURATOR.token,
      body: { title: 'Квиз', questions: [{ ...NEW_TYPES[2], correctAnswers: [0] }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Для каждой строки матрицы выберите верный столбец');
  });
});
