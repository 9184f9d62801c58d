import { type AttemptDetail, type LearnerQuiz, type ShowCorrectAnswers, type StartedAttempt } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { presentQuestions } from '../../commands/grading';
import { question, seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

/** «Показывать правильные ответы» and the attempt's shuffle seed (docs/decisions/030, 031). */
let bed: ProgressTestBed;
beforeAll(async () => {
  bed = await startProgress();
});
afterAll(() => bed.close());

const call = <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<T>(bed.progress.url, method, path, { token, body });
const start = (token: string, s: SeededCourse) =>
  call<StartedAttempt>('POST', '/api/attempts', token, { quizId: s.quiz.id, courseId: s.course.id, lessonId: s.quizLessonId });
const blank = (started: StartedAttempt) => started.questions.map((q) => ({ questionId: q.id, answer: null }));
const right = (started: StartedAttempt) =>
  started.questions.map((q) => {
    if (q.type === 'single_choice') return { questionId: q.id, answer: q.options.indexOf('28') };
    if (q.type === 'true_false') return { questionId: q.id, answer: 'true' };
    return { questionId: q.id, answer: 'Трудовой кодекс' };
  });
/** Every right answer of the sample quiz, as results would name them. */
const RIGHT_TEXTS = ['28', 'Верно', 'Трудовой кодекс'];

async function takeBlank(token: string, s: SeededCourse): Promise<AttemptDetail> {
  const { body } = await start(token, s);
  return (await call<AttemptDetail>('POST', `/api/attempts/${body.attempt.id}/submit`, token, { answers: blank(body) })).body;
}
const namesRightAnswers = (d: AttemptDetail) => RIGHT_TEXTS.some((t) => JSON.stringify(d).includes(`"correctAnswerText":"${t}"`));

describe('«Показывать правильные ответы»', () => {
  it('by default names no right answer after a first failed attempt of 3, and names them after the last one', async () => {
    const quiz = await seedQuizCourse(bed);
    expect(quiz.quiz.settings.showCorrectAnswers).toBe('after_pass_or_last');
    const me = await bed.learner();
    const first = await takeBlank(me.token, quiz);
    expect(first).toMatchObject({ status: 'failed', attemptNumber: 1, correctAnswersRevealed: false });
    expect(first.questions.map((q) => q.correctAnswerText)).toEqual([null, null, null]);
    // Read again later, it still says nothing.
    const reread = await call<AttemptDetail>('GET', `/api/attempts/${first.id}`, me.token);
    expect(namesRightAnswers(reread.body)).toBe(false);
    expect(namesRightAnswers(await takeBlank(me.token, quiz))).toBe(false);
    const last = await takeBlank(me.token, quiz);
    expect(last).toMatchObject({ attemptNumber: 3, correctAnswersRevealed: true });
    expect(last.questions.map((q) => q.correctAnswerText).sort()).toEqual([...RIGHT_TEXTS].sort());
    // Done with the quiz: the first attempt now names them too.
    expect(namesRightAnswers((await call<AttemptDetail>('GET', `/api/attempts/${first.id}`, me.token)).body)).toBe(true);
  });

  it('by default names them after a pass (for the questions answered wrong) and on earlier attempts', async () => {
    const quiz = await seedQuizCourse(bed, { settings: { passingScore: 60 } });
    const me = await bed.learner();
    const failed = await takeBlank(me.token, quiz);
    expect(failed.correctAnswersRevealed).toBe(false);
    const { body } = await start(me.token, quiz);
    // Two of three right (67%): a pass, with one wrong answer whose right answer is named.
    const answers = right(body).map((a) => (a.questionId === 'q3' ? { ...a, answer: 'не знаю' } : a));
    const passed = (await call<AttemptDetail>('POST', `/api/attempts/${body.attempt.id}/submit`, me.token, { answers })).body;
    expect(passed).toMatchObject({ status: 'passed', correctAnswersRevealed: true });
    expect(passed.questions.find((q) => q.questionId === 'q3')?.correctAnswerText).toBe('Трудовой кодекс');
    expect(namesRightAnswers((await call<AttemptDetail>('GET', `/api/attempts/${failed.id}`, me.token)).body)).toBe(true);
  });

  it('after every attempt names them at once; never keeps them even after the last attempt; staff always see them', async () => {
    const each = await seedQuizCourse(bed, { settings: { showCorrectAnswers: 'after_each_attempt' } });
    const never = await seedQuizCourse(bed, { settings: { showCorrectAnswers: 'never', maxAttempts: 1 } });
    const me = await bed.learner();
    const first = await takeBlank(me.token, each);
    expect(first.correctAnswersRevealed).toBe(true);
    expect(first.questions.map((q) => q.correctAnswerText).sort()).toEqual([...RIGHT_TEXTS].sort());
    const last = await takeBlank(me.token, never);
    expect(last).toMatchObject({ attemptNumber: 1, correctAnswersRevealed: false });
    expect(namesRightAnswers(last)).toBe(false);
    const staff = await call<AttemptDetail>('GET', `/api/attempts/${last.id}`, bed.as.CURATOR.token);
    expect(staff.body.correctAnswersRevealed).toBe(true);
    expect(namesRightAnswers(staff.body)).toBe(true);
  });

  it('is refused with 400 when it is not one of the three values', async () => {
    const answer = await api(bed.content.url, 'POST', '/api/quizzes', {
      token: bed.as.CURATOR.token,
      body: { title: 'Квиз', settings: { showCorrectAnswers: 'always' as ShowCorrectAnswers } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('settings.showCorrectAnswers');
  });
});

describe('the shuffle seed', () => {
  const ORDERING = [
    question({ id: 'ord', type: 'ordering', question: 'Порядок', options: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], order: 0 }),
    question({
      id: 'ch',
      type: 'single_choice',
      question: 'Выбор',
      options: ['1', '2', '3', '4', '5', '6'],
      correctAnswers: [0],
      order: 1,
    }),
  ];

  it('is a random value stored with each attempt: the shown orders come from it, and differ from attempt to attempt', async () => {
    const quiz = await seedQuizCourse(bed, { questions: ORDERING, settings: { maxAttempts: 10, randomizeAnswers: true } });
    const seeds = new Set<string>();
    const shown = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const me = await bed.learner();
      const { body } = await start(me.token, quiz);
      const stored = (await bed.store.attempts.findById(body.attempt.id).lean())!;
      expect(stored.shuffleSeed).toMatch(/^[0-9a-f]{32}$/);
      seeds.add(stored.shuffleSeed!);
      // The seed is the whole source: the same seed gives exactly the orders this attempt showed.
      const again = presentQuestions(quiz.quiz.questions, quiz.quiz.settings, stored.shuffleSeed);
      expect(again.map((q) => q.optionOrder)).toEqual(stored.questions.map((q) => q.optionOrder));
      shown.add(body.questions.map((q) => q.options.join('')).join('|'));
      // Never sent to the learner's browser.
      expect(JSON.stringify(body)).not.toContain(stored.shuffleSeed);
    }
    expect(seeds.size).toBe(4);
    // Four learners of one quiz: were the order made from the service's secret, they would all see the same.
    expect(shown.size).toBeGreaterThan(1);
  });

  it('of the learner view is the quiz’s own random value, not the internal token: two quizzes alike are shown differently', async () => {
    const orders = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const quiz = await seedQuizCourse(bed, { questions: ORDERING });
      const stored = await bed.content.ctx.store.collection('quizzes').findOne({ title: quiz.quiz.title });
      expect(String(stored?.shuffleSeed)).toMatch(/^[0-9a-f]{32}$/);
      expect(String(stored?.shuffleSeed)).not.toContain(bed.content.ctx.config.INTERNAL_TOKEN);
      const me = await bed.learner();
      const view = await api<LearnerQuiz>(bed.content.url, 'GET', `/api/quizzes/${quiz.quiz.id}`, { token: me.token });
      expect(view.status).toBe(200);
      const again = await api<LearnerQuiz>(bed.content.url, 'GET', `/api/quizzes/${quiz.quiz.id}`, { token: me.token });
      expect(again.body.questions).toEqual(view.body.questions);
      orders.add(view.body.questions[0].options.join(''));
    }
    // The same questions under the same token: one order if the token seeded them.
    expect(orders.size).toBeGreaterThan(1);
  });
});
