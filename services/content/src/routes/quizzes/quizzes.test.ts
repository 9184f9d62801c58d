import {
  EDITOR_MSG,
  MSG,
  NEW_QUIZ_DEFAULTS,
  QUIZ_MSG,
  newQuestion,
  type LearnerQuiz,
  type Question,
  type Quiz,
  type QuizSummary,
  invalidIdMessage,
} from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { Types } from 'mongoose';
import { basedOnStored, auditEventsFor, seedCourse, startContent, uniqueTitle, type ContentTestBed } from '../../testing';

let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

// Every edit here is based on the version stored just before it, as the editor's is on what it read.
const call = async <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<T>(bed.content.url, method, path, {
    token,
    body: method === 'PATCH' || method === 'PUT' ? await basedOnStored(bed, path, body) : body,
  });
const staff = () => bed.as.CURATOR.token;
const UNKNOWN_ID = '64b7f0c2a1b2c3d4e5f60718';
const BAD_ID = encodeURIComponent('bad id!');
const LEARNERS = ['CLIENT', 'CANDIDATE', 'MANAGER'] as const;

/** One question of each type the editor can add, plus numeric, all answerable. */
function questionsOfEveryKind(): Question[] {
  const single = {
    ...newQuestion('single_choice', 'q-single', 0),
    question: 'Столица России?',
    options: ['Москва', 'Казань'],
    correctAnswers: [0],
    explanation: 'Москва',
  };
  const multiple = { ...newQuestion('multiple_choice', 'q-multi', 1), options: ['2', '3', '4'], correctAnswers: [0, 1] };
  const trueFalse = { ...newQuestion('true_false', 'q-tf', 2), correctAnswer: 'false' };
  const ordering = { ...newQuestion('ordering', 'q-order', 3), options: ['Первый', 'Второй', 'Третий', 'Четвёртый'] };
  const matching = {
    ...newQuestion('matching', 'q-match', 4),
    pairs: [
      { left: 'Кот', right: 'Мяу' },
      { left: 'Пёс', right: 'Гав' },
      { left: 'Корова', right: 'Му' },
    ],
  };
  const blanks = {
    ...newQuestion('fill_blanks', 'q-blanks', 5),
    question: 'Вода кипит при ___ градусах, а замерзает при ___',
    blanks: ['100', '0'],
  };
  const short = { ...newQuestion('short_answer', 'q-short', 6), correctAnswer: 'Пушкин' };
  const long = newQuestion('long_answer', 'q-long', 7);
  const numeric = { ...newQuestion('numeric', 'q-num', 8), correctAnswer: '3.14', tolerance: 0.01 };
  return [single, multiple, trueFalse, ordering, matching, blanks, short, long, numeric];
}

async function createQuiz(body: Record<string, unknown> = {}): Promise<Quiz> {
  const answer = await call<Quiz>('POST', '/api/quizzes', staff(), { title: uniqueTitle('Квиз'), ...body });
  if (answer.status !== 201) throw new Error(`quiz create failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A published course with a lesson holding a quiz block for the quiz. */
async function publishQuizInLesson(quizId: string, { lessonStatus = 'published', courseStatus = 'published' } = {}) {
  const course = await seedCourse(bed, { modules: [0], status: courseStatus });
  const lesson = await call('POST', '/api/blocks', staff(), {
    courseId: course.id,
    moduleId: course.modules[0].id,
    title: 'Урок с квизом',
    status: lessonStatus,
    content: [
      { type: 'text', content: { text: 'Перед тестом' } },
      { type: 'quiz', content: { quizId, questionsCount: 1 } },
    ],
  });
  expect(lesson.status).toBe(201);
  return { course, lessonId: lesson.body.id as string };
}

describe('POST /api/quizzes', () => {
  it('answers 401, 403 to everyone but ADMIN and CURATOR, and stores nothing', async () => {
    const body = { title: 'Не будет создан' };
    expect((await call('POST', '/api/quizzes', undefined, body)).status).toBe(401);
    for (const role of LEARNERS) {
      expect((await call('POST', '/api/quizzes', bed.as[role].token, body)).body).toMatchObject({
        statusCode: 403,
        message: MSG.forbidden,
      });
    }
    expect(await bed.models.quizzes.countDocuments({ title: 'Не будет создан' })).toBe(0);
  });

  it('refuses a missing title, bad settings and unanswerable questions, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ title: '   ' }, 'title', QUIZ_MSG.titleRequired],
      [{ title: 'К', settings: { passingScore: 101 } }, 'settings.passingScore', QUIZ_MSG.passingScoreRange],
      [{ title: 'К', settings: { maxAttempts: 11 } }, 'settings.maxAttempts', QUIZ_MSG.maxAttemptsRange],
      [{ title: 'К', settings: { maxAttempts: 0 } }, 'settings.maxAttempts', QUIZ_MSG.maxAttemptsRange],
      [{ title: 'К', settings: { timeLimit: -1 } }, 'settings.timeLimit', QUIZ_MSG.timeLimitMin],
      [
        { title: 'К', questions: [{ ...newQuestion('single_choice', 'a', 0), question: ' ' }] },
        'questions.0.question',
        QUIZ_MSG.questionRequired,
      ],
      [
        { title: 'К', questions: [{ ...newQuestion('single_choice', 'a', 0), correctAnswers: [] }] },
        'questions.0.correctAnswers',
        EDITOR_MSG.correctOne,
      ],
      [
        { title: 'К', questions: [{ ...newQuestion('multiple_choice', 'a', 0), correctAnswers: [5] }] },
        'questions.0.correctAnswers',
        EDITOR_MSG.correctOutOfRange,
      ],
      [
        { title: 'К', questions: [{ ...newQuestion('single_choice', 'a', 0), options: ['Один'] }] },
        'questions.0.options',
        EDITOR_MSG.optionsTooFew,
      ],
      [{ title: 'К', questions: [newQuestion('fill_blanks', 'a', 0)] }, 'questions.0.blanks.0', EDITOR_MSG.blankEmpty],
      [
        { title: 'К', questions: [{ ...newQuestion('fill_blanks', 'a', 0), question: 'Без пропусков' }] },
        'questions.0.question',
        EDITOR_MSG.blanksMissing,
      ],
      [
        {
          title: 'К',
          questions: [
            {
              ...newQuestion('matching', 'a', 0),
              pairs: [
                { left: 'x', right: '' },
                { left: 'y', right: 'z' },
              ],
            },
          ],
        },
        'questions.0.pairs.0',
        EDITOR_MSG.pairEmpty,
      ],
      [
        { title: 'К', questions: [{ ...newQuestion('numeric', 'a', 0), correctAnswer: 'пи' }] },
        'questions.0.correctAnswer',
        EDITOR_MSG.numericAnswer,
      ],
      [
        { title: 'К', questions: [newQuestion('short_answer', 'a', 0)] },
        'questions.0.correctAnswer',
        EDITOR_MSG.shortAnswerRequired,
      ],
      [
        { title: 'К', questions: [newQuestion('true_false', 'a', 0), newQuestion('true_false', 'a', 1)] },
        'questions.1.id',
        'Повторяющийся id вопроса: a',
      ],
      [{ title: 'К', questions: [{ ...newQuestion('true_false', 'a', 0), type: 'essay' }] }, 'questions.0.type', ''],
      [{ title: 'К', courseId: 'bad id!' }, 'courseId', invalidIdMessage('courseId')],
    ];
    for (const [body, field, message] of cases) {
      const answer = await call('POST', '/api/quizzes', staff(), body);
      expect({ body, status: answer.status, field: answer.body.field }).toEqual({ body, status: 400, field });
      if (message) expect(answer.body.message).toBe(message);
    }
    expect((await call('POST', '/api/quizzes', staff(), { title: 'К', courseId: UNKNOWN_ID })).status).toBe(404);
    expect(await bed.models.quizzes.countDocuments({ title: 'К' })).toBe(0);
  });

  it('creates a quiz with the spec defaults, keeps every type of question, and records it', async () => {
    const course = await seedCourse(bed);
    const answer = await call<Quiz>('POST', '/api/quizzes', staff(), {
      title: '  Основы HR  ',
      courseId: course.id,
      questions: questionsOfEveryKind(),
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      title: 'Основы HR',
      description: '',
      courseId: course.id,
      settings: NEW_QUIZ_DEFAULTS.settings,
    });
    expect(answer.body.questions.map((q) => [q.id, q.order])).toEqual(questionsOfEveryKind().map((q, i) => [q.id, i + 1]));
    expect(answer.body.questions[4].pairs).toEqual([
      { left: 'Кот', right: 'Мяу' },
      { left: 'Пёс', right: 'Гав' },
      { left: 'Корова', right: 'Му' },
    ]);
    expect(answer.body.questions[5].blanks).toEqual(['100', '0']);
    expect(answer.body.questions[8]).toMatchObject({ correctAnswer: '3.14', tolerance: 0.01 });
    expect(answer.body.questions[0].explanation).toBe('Москва');

    const stored = await bed.models.quizzes.findById(answer.body.id).lean();
    expect(stored).toMatchObject({
      title: 'Основы HR',
      courseId: course.id,
      createdBy: bed.as.CURATOR.user.id,
      settings: { passingScore: 70, maxAttempts: 3, timeLimit: null },
    });
    expect(stored?.questions).toHaveLength(9);
    expect(await auditEventsFor(bed.content, answer.body.id)).toEqual([
      expect.objectContaining({
        action: 'create',
        entity: 'quiz',
        actor: expect.objectContaining({ email: bed.as.CURATOR.user.email }),
      }),
    ]);
  });

  it('lays given settings over the defaults: empty pass mark is 0, empty attempts 1, empty time limit none', async () => {
    const empty = await createQuiz({ settings: { passingScore: '', maxAttempts: '', timeLimit: '' } });
    expect(empty.settings).toMatchObject({ passingScore: 0, maxAttempts: 1, timeLimit: null, randomizeAnswers: true });
    const set = await createQuiz({
      settings: { passingScore: 100, maxAttempts: 10, timeLimit: 15, showExplanations: 'after_course', randomizeQuestions: true },
    });
    expect(set.settings).toEqual({
      randomizeQuestions: true,
      randomizeAnswers: true,
      passingScore: 100,
      maxAttempts: 10,
      timeLimit: 15,
      showExplanations: 'after_course',
      showCorrectAnswers: 'after_pass_or_last',
      scoring: 'all_or_nothing',
    });
  });
});

describe('GET /api/quizzes', () => {
  it('answers 401 and 403 to learners', async () => {
    expect((await call('GET', '/api/quizzes')).status).toBe(401);
    for (const role of LEARNERS) expect((await call('GET', '/api/quizzes', bed.as[role].token)).status).toBe(403);
  });

  it('lists summaries newest first, searchable by title and filtered by course', async () => {
    const course = await seedCourse(bed);
    const tag = uniqueTitle('Поиск');
    const first = await createQuiz({
      title: `${tag} первый`,
      courseId: course.id,
      questions: [newQuestion('true_false', 'x', 0)],
    });
    const second = await createQuiz({ title: `${tag} ВТОРОЙ` });
    const found = await call<QuizSummary[]>(
      'GET',
      `/api/quizzes?search=${encodeURIComponent(tag.toLowerCase())}`,
      bed.as.ADMIN.token,
    );
    expect(found.status).toBe(200);
    expect(found.body.map((q) => q.id)).toEqual([second.id, first.id]);
    expect(found.body[1]).toEqual({
      id: first.id,
      title: first.title,
      description: '',
      courseId: course.id,
      questionsCount: 1,
      settings: first.settings,
      draws: [],
      version: 0,
      createdAt: first.createdAt,
      updatedAt: first.updatedAt,
    });
    expect(found.body[1]).not.toHaveProperty('questions');
    const ofCourse = await call<QuizSummary[]>('GET', `/api/quizzes?courseId=${course.id}`, staff());
    expect(ofCourse.body.map((q) => q.id)).toEqual([first.id]);
    expect((await call('GET', `/api/quizzes?courseId=${BAD_ID}`, staff())).body).toMatchObject({
      statusCode: 400,
      field: 'courseId',
    });
  });
});

describe('GET /api/quizzes/{id}', () => {
  it('answers 401, 400 for a broken id and 404 for an unknown one', async () => {
    const quiz = await createQuiz();
    expect((await call('GET', `/api/quizzes/${quiz.id}`)).status).toBe(401);
    expect((await call('GET', `/api/quizzes/${BAD_ID}`, staff())).body).toMatchObject({ statusCode: 400, field: 'id' });
    expect((await call('GET', `/api/quizzes/${UNKNOWN_ID}`, staff())).body).toMatchObject({
      statusCode: 404,
      message: QUIZ_MSG.quizNotFound,
    });
  });

  it('gives authors the whole quiz, answers included', async () => {
    const quiz = await createQuiz({ questions: questionsOfEveryKind() });
    const answer = await call<Quiz>('GET', `/api/quizzes/${quiz.id}`, bed.as.ADMIN.token);
    expect(answer.body).toEqual(quiz);
  });

  it('hides a quiz from learners unless a lesson they can see holds it (403 is never the answer: it does not exist for them)', async () => {
    const loose = await createQuiz({ questions: questionsOfEveryKind() });
    for (const role of LEARNERS) expect((await call('GET', `/api/quizzes/${loose.id}`, bed.as[role].token)).status).toBe(404);
    const inDraftCourse = await createQuiz({ questions: questionsOfEveryKind() });
    await publishQuizInLesson(inDraftCourse.id, { courseStatus: 'draft' });
    expect((await call('GET', `/api/quizzes/${inDraftCourse.id}`, bed.as.CLIENT.token)).status).toBe(404);
    const inHiddenLesson = await createQuiz({ questions: questionsOfEveryKind() });
    await publishQuizInLesson(inHiddenLesson.id, { lessonStatus: 'hidden' });
    expect((await call('GET', `/api/quizzes/${inHiddenLesson.id}`, bed.as.CLIENT.token)).status).toBe(404);
  });

  it('gives learners the learner view: no answers or explanations, matching and ordering shuffled, blanks counted', async () => {
    const quiz = await createQuiz({ questions: questionsOfEveryKind(), settings: { timeLimit: 10 } });
    await publishQuizInLesson(quiz.id);
    for (const role of LEARNERS) {
      const answer = await call<LearnerQuiz>('GET', `/api/quizzes/${quiz.id}`, bed.as[role].token);
      expect(answer.status).toBe(200);
      const { questions, ...rest } = answer.body;
      expect(rest).toEqual({
        id: quiz.id,
        title: quiz.title,
        description: '',
        courseId: null,
        settings: quiz.settings,
        draws: [],
        version: 0,
        createdAt: quiz.createdAt,
        updatedAt: quiz.updatedAt,
      });
      const text = JSON.stringify(answer.body);
      for (const secret of ['correctAnswers', 'correctAnswer', 'explanation', '"blanks"', 'tolerance', 'pairs', 'Пушкин', '3.14'])
        expect(text).not.toContain(secret);
      const byId = Object.fromEntries(questions.map((q) => [q.id, q]));
      expect(byId['q-single']).toEqual({
        id: 'q-single',
        type: 'single_choice',
        question: 'Столица России?',
        options: ['Москва', 'Казань'],
        order: 1,
        points: 1,
      });
      expect(byId['q-blanks']).toMatchObject({ blanksCount: 2, options: [] });
      expect(byId['q-match'].left).toEqual(['Кот', 'Пёс', 'Корова']);
      expect([...(byId['q-match'].right ?? [])].sort()).toEqual(['Гав', 'Му', 'Мяу']);
      expect(byId['q-match'].right).not.toEqual(['Мяу', 'Гав', 'Му']);
      expect([...byId['q-order'].options].sort()).toEqual(['Второй', 'Первый', 'Третий', 'Четвёртый']);
      expect(byId['q-order'].options).not.toEqual(['Первый', 'Второй', 'Третий', 'Четвёртый']);
      expect(byId['q-tf']).toEqual({
        id: 'q-tf',
        type: 'true_false',
        question: 'Новый вопрос',
        options: [],
        order: 3,
        points: 1,
      });
    }
    // The shown order is stable from one load to the next.
    const again = await call<LearnerQuiz>('GET', `/api/quizzes/${quiz.id}`, bed.as.CLIENT.token);
    const once = await call<LearnerQuiz>('GET', `/api/quizzes/${quiz.id}`, bed.as.CLIENT.token);
    expect(again.body.questions).toEqual(once.body.questions);
  });
});

describe('PATCH /api/quizzes/{id}', () => {
  it('answers 401, 403, 400 and 404', async () => {
    const quiz = await createQuiz();
    expect((await call('PATCH', `/api/quizzes/${quiz.id}`, undefined, { title: 'Х' })).status).toBe(401);
    for (const role of LEARNERS)
      expect((await call('PATCH', `/api/quizzes/${quiz.id}`, bed.as[role].token, { title: 'Х' })).status).toBe(403);
    expect((await call('PATCH', `/api/quizzes/${quiz.id}`, staff(), {})).status).toBe(400);
    expect((await call('PATCH', `/api/quizzes/${quiz.id}`, staff(), { settings: { passingScore: -1 } })).body).toMatchObject({
      statusCode: 400,
      field: 'settings.passingScore',
    });
    expect((await call('PATCH', `/api/quizzes/${BAD_ID}`, staff(), { title: 'Х' })).status).toBe(400);
    expect((await call('PATCH', `/api/quizzes/${UNKNOWN_ID}`, staff(), { title: 'Х' })).status).toBe(404);
    expect((await bed.models.quizzes.findById(quiz.id).lean())?.title).toBe(quiz.title);
  });

  it('changes only what is given, lays settings over the stored ones, and keeps lesson blocks in step', async () => {
    const quiz = await createQuiz({
      settings: { passingScore: 80, maxAttempts: 2 },
      questions: [newQuestion('true_false', 'a', 0)],
    });
    const { lessonId } = await publishQuizInLesson(quiz.id);
    const answer = await call<Quiz>('PATCH', `/api/quizzes/${quiz.id}`, bed.as.ADMIN.token, {
      settings: { timeLimit: 5 },
      questions: [newQuestion('true_false', 'a', 0), { ...newQuestion('short_answer', 'b', 1), correctAnswer: 'да' }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ title: quiz.title, settings: { passingScore: 80, maxAttempts: 2, timeLimit: 5 } });
    expect(answer.body.questions.map((q) => q.id)).toEqual(['a', 'b']);
    const stored = await bed.models.quizzes.findById(quiz.id).lean();
    expect(stored?.questions.map((q) => q.type)).toEqual(['true_false', 'short_answer']);
    const lesson = await bed.models.blocks.findById(lessonId).lean();
    expect(JSON.parse(lesson?.content ?? '[]')[1].content).toEqual({ quizId: quiz.id, questionsCount: 2 });
    const events = await auditEventsFor(bed.content, quiz.id);
    expect(events.map((e) => [e.action, e.entity])).toEqual([
      ['create', 'quiz'],
      ['update', 'quiz'],
    ]);
  });
});

describe('DELETE /api/quizzes/{id}', () => {
  it('answers 401, 403, 400 and 404', async () => {
    const quiz = await createQuiz();
    expect((await call('DELETE', `/api/quizzes/${quiz.id}`)).status).toBe(401);
    for (const role of LEARNERS) expect((await call('DELETE', `/api/quizzes/${quiz.id}`, bed.as[role].token)).status).toBe(403);
    expect((await call('DELETE', `/api/quizzes/${BAD_ID}`, staff())).status).toBe(400);
    expect((await call('DELETE', `/api/quizzes/${UNKNOWN_ID}`, staff())).status).toBe(404);
    expect(await bed.models.quizzes.exists({ _id: new Types.ObjectId(quiz.id) })).toBeTruthy();
  });

  it('refuses while a lesson holds the quiz, and deletes it once it is free', async () => {
    const quiz = await createQuiz();
    const { lessonId } = await publishQuizInLesson(quiz.id);
    const refused = await call('DELETE', `/api/quizzes/${quiz.id}`, staff());
    expect(refused.body).toMatchObject({
      statusCode: 409,
      message: 'Квиз используется в уроке «Урок с квизом». Сначала удалите из урока блок квиза',
    });
    expect(await bed.models.quizzes.exists({ _id: new Types.ObjectId(quiz.id) })).toBeTruthy();
    await call('PATCH', `/api/blocks/${lessonId}`, staff(), { content: [] });
    expect((await call('DELETE', `/api/quizzes/${quiz.id}`, staff())).status).toBe(204);
    expect(await bed.models.quizzes.exists({ _id: new Types.ObjectId(quiz.id) })).toBeNull();
    expect((await auditEventsFor(bed.content, quiz.id)).at(-1)).toMatchObject({ action: 'delete', entity: 'quiz' });
  });
});
