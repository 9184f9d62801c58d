import {
  QUESTION_TYPES,
  deadlineOf,
  formatCountdown,
  gradeQuestion,
  gradeQuiz,
  isAnswerCorrect,
  isLate,
  newQuestion,
  parseNumber,
  playerQuestion,
  presentQuestions,
  questionSchema,
  answerText,
  correctAnswerText,
  secondsLeft,
  toQuizTerms,
  type AnswerValue,
  type Question,
  type QuestionType,
  type ScoringMode,
} from './index';

/** One question of every type, with answers no view may show. */
const SAMPLE: Record<QuestionType, Question> = {
  single_choice: { ...newQuestion('single_choice', 'sc', 0), options: ['14', '28', '31'], correctAnswers: [1] },
  multiple_choice: { ...newQuestion('multiple_choice', 'mc', 1), options: ['А', 'Б', 'В', 'Г'], correctAnswers: [0, 2] },
  true_false: { ...newQuestion('true_false', 'tf', 2), correctAnswer: 'false' },
  ordering: { ...newQuestion('ordering', 'or', 3), options: ['Первый', 'Второй', 'Третий', 'Четвёртый'] },
  matching: {
    ...newQuestion('matching', 'ma', 4),
    pairs: [
      { left: 'Москва', right: 'Россия' },
      { left: 'Париж', right: 'Франция' },
      { left: 'Рим', right: 'Италия' },
    ],
  },
  fill_blanks: {
    ...newQuestion('fill_blanks', 'fb', 5),
    question: 'Отпуск ___ дней, ___ календарных',
    blanks: ['двадцать восемь', 'секрет'],
  },
  short_answer: { ...newQuestion('short_answer', 'sa', 6), correctAnswer: 'Трудовой кодекс' },
  long_answer: { ...newQuestion('long_answer', 'la', 7), correctAnswer: 'тайна' },
  numeric: { ...newQuestion('numeric', 'nu', 8), correctAnswer: '3,14', tolerance: 0.01 },
  file_upload: newQuestion('file_upload', 'fu', 9),
  hotspot: {
    ...newQuestion('hotspot', 'hs', 10),
    image: '/api/files/plan.png',
    imageAlt: 'План этажа',
    areas: [
      { shape: 'rect', x: 10, y: 10, width: 20, height: 20 },
      {
        shape: 'polygon',
        points: [
          { x: 60, y: 60 },
          { x: 90, y: 60 },
          { x: 75, y: 90 },
        ],
      },
    ],
  },
  image_labels: {
    ...newQuestion('image_labels', 'il', 11),
    image: '/api/files/heart.png',
    markers: [
      { x: 10, y: 10, label: 'Аорта' },
      { x: 50, y: 50, label: 'Желудочек' },
      { x: 90, y: 90, label: 'Предсердие' },
    ],
  },
  scale: { ...newQuestion('scale', 'sl', 12) },
  matrix: {
    ...newQuestion('matrix', 'mx', 13),
    rows: ['Пожар', 'Потоп', 'Землетрясение', 'Ураган'],
    options: ['Огнетушитель', 'Насос', 'Выход'],
    correctAnswers: [0, 1, 2, 2],
  },
};
for (const q of Object.values(SAMPLE)) q.explanation = 'Разбор ответа';
const ALL = QUESTION_TYPES.map((t) => SAMPLE[t]);
const random = { randomizeQuestions: true, randomizeAnswers: true };

describe('the learner view', () => {
  it.each(QUESTION_TYPES)('%s: never holds an answer, whatever the seed', (type) => {
    const q = SAMPLE[type];
    for (const seed of ['a', 'b', 'c', 'd']) {
      const [shown] = presentQuestions([q], random, seed);
      const view = playerQuestion(shown);
      const allowed = [
        'id',
        'type',
        'question',
        'options',
        'left',
        'right',
        'blanksCount',
        'rows',
        'image',
        'imageAlt',
        'markers',
        'labels',
      ];
      expect(Object.keys(view).every((k) => allowed.includes(k))).toBe(true);
      const json = JSON.stringify(view);
      const secrets = [
        'correctAnswer',
        'tolerance',
        'areas',
        '"blanks"',
        'pairs',
        'explanation',
        'Разбор',
        'тайна',
        'двадцать восемь',
        'секрет',
        '3,14',
      ];
      for (const secret of secrets) expect(json).not.toContain(secret);
      if (view.markers) expect(view.markers.every((m) => !('label' in m))).toBe(true);
      // What is shuffled because its order is the answer is never shown solved.
      if (type === 'ordering') expect(view.options).not.toEqual(q.options);
      if (type === 'matching') expect(view.right).not.toEqual(q.pairs!.map((p) => p.right));
      if (type === 'image_labels') expect(view.labels).not.toEqual(q.markers!.map((m) => m.label));
    }
  });

  it('shows each type what it needs to be answered', () => {
    const views = Object.fromEntries(
      presentQuestions(ALL, { randomizeQuestions: false, randomizeAnswers: false }, 's').map((s) => [s.type, playerQuestion(s)]),
    );
    expect(views.fill_blanks.blanksCount).toBe(2);
    expect(views.matrix).toMatchObject({ rows: SAMPLE.matrix.rows, options: SAMPLE.matrix.options });
    expect(views.scale.options).toHaveLength(5);
    expect(views.hotspot).toMatchObject({ image: '/api/files/plan.png', imageAlt: 'План этажа' });
    expect(views.image_labels.markers).toEqual([
      { x: 10, y: 10 },
      { x: 50, y: 50 },
      { x: 90, y: 90 },
    ]);
    expect([...views.image_labels.labels!].sort()).toEqual(['Аорта', 'Желудочек', 'Предсердие']);
  });

  it('is the same for the same seed and differs between seeds', () => {
    const ids = (seed: string) => presentQuestions(ALL, random, seed).map((q) => `${q.id}:${q.optionOrder}:${q.rightOrder}`);
    expect(ids('seed-1')).toEqual(ids('seed-1'));
    expect(new Set(['seed-1', 'seed-2', 'seed-3'].map((s) => ids(s).join('|'))).size).toBeGreaterThan(1);
    expect(presentQuestions(ALL, { randomizeQuestions: false, randomizeAnswers: true }, 'x').map((q) => q.id)).toEqual(
      ALL.map((q) => q.id),
    );
  });
});

/** Answers in the quiz's own terms. [type, answer, all-or-nothing points, proportional points]. */
const GRADES: Array<[QuestionType, string, AnswerValue, number, number]> = [
  ['single_choice', 'right', 1, 1, 1],
  ['single_choice', 'wrong', 0, 0, 0],
  ['single_choice', 'empty', null, 0, 0],
  ['single_choice', 'out of range', 7, 0, 0],
  ['multiple_choice', 'exact set, any order', [2, 0], 1, 1],
  ['multiple_choice', 'duplicated choice', [0, 0, 2], 1, 1],
  ['multiple_choice', 'half', [0], 0, 0.5],
  ['multiple_choice', 'one right one wrong', [0, 1], 0, 0],
  ['multiple_choice', 'all ticked', [0, 1, 2, 3], 0, 0],
  ['multiple_choice', 'empty', [], 0, 0],
  ['true_false', 'right', 'false', 1, 1],
  ['true_false', 'wrong', 'true', 0, 0],
  ['short_answer', 'trimmed, any case', '  трудовой КОДЕКС ', 1, 1],
  ['short_answer', 'wrong', 'Кодекс', 0, 0],
  ['short_answer', 'blank', '   ', 0, 0],
  ['ordering', 'right', [0, 1, 2, 3], 1, 1],
  ['ordering', 'two in place', [0, 1, 3, 2], 0, 0.5],
  ['ordering', 'too short', [0, 1, 2], 0, 0],
  ['ordering', 'duplicated', [0, 0, 0, 0], 0, 0.25],
  ['matching', 'right', { 0: 0, 1: 1, 2: 2 }, 1, 1],
  ['matching', 'one of three', { 0: 0, 1: 2, 2: 1 }, 0, 0.33],
  ['matching', 'out of range', { 0: 9 }, 0, 0],
  ['fill_blanks', 'right, any case', ['Двадцать восемь ', 'СЕКРЕТ'], 1, 1],
  ['fill_blanks', 'one of two', ['двадцать восемь', 'x'], 0, 0.5],
  ['fill_blanks', 'an extra blank', ['двадцать восемь', 'секрет', 'лишнее'], 0, 0.67],
  ['numeric', 'decimal comma', '3,14', 1, 1],
  ['numeric', 'within tolerance', '3.149', 1, 1],
  ['numeric', 'outside tolerance', 3.2, 0, 0],
  ['numeric', 'not a number', '3,14abc', 0, 0],
  ['matrix', 'right', { 0: 0, 1: 1, 2: 2, 3: 2 }, 1, 1],
  ['matrix', 'three of four rows', { 0: 0, 1: 1, 2: 2, 3: 0 }, 0, 0.75],
  ['matrix', 'a row skipped', { 0: 0, 1: 1, 2: 2 }, 0, 0.75],
  ['image_labels', 'right', { 0: 0, 1: 1, 2: 2 }, 1, 1],
  ['image_labels', 'one of three', { 0: 0, 1: 2, 2: 1 }, 0, 0.33],
  ['image_labels', 'one label everywhere', { 0: 0, 1: 0, 2: 0 }, 0, 0.33],
  ['hotspot', 'in the rectangle', { x: 15, y: 29 }, 1, 1],
  ['hotspot', 'on the rectangle edge', { x: 30, y: 30 }, 1, 1],
  ['hotspot', 'in the triangle', { x: 75, y: 70 }, 1, 1],
  ['hotspot', 'beside the triangle', { x: 62, y: 85 }, 0, 0],
  ['hotspot', 'nowhere', { x: 50, y: 50 }, 0, 0],
];

describe('grading with points and partial credit', () => {
  it.each(GRADES)('%s, %s', (type, _name, answer, whole, part) => {
    expect(gradeQuestion(SAMPLE[type], answer, 'all_or_nothing').earned).toBe(whole);
    expect(gradeQuestion(SAMPLE[type], answer, 'proportional').earned).toBe(part);
    expect(isAnswerCorrect(SAMPLE[type], answer)).toBe(whole === 1);
  });

  it('weighs by the question points, rounding partial credit to hundredths', () => {
    const heavy = { ...SAMPLE.matching, points: 5 };
    expect(gradeQuestion(heavy, { 0: 0, 1: 1, 2: 2 })).toEqual({ earned: 5, max: 5, correct: true, manual: false });
    expect(gradeQuestion(heavy, { 0: 0 }, 'proportional').earned).toBe(1.67);
  });

  it('never grades a survey; waits for a person on long answers and files', () => {
    expect(gradeQuestion(SAMPLE.scale, 4)).toEqual({ earned: 0, max: 0, correct: false, manual: false });
    expect(gradeQuestion(SAMPLE.long_answer, 'тайна')).toEqual({ earned: 0, max: 1, correct: false, manual: true });
    expect(gradeQuestion(SAMPLE.file_upload, '/api/files/a.pdf')).toMatchObject({ earned: 0, manual: true });
    expect(gradeQuestion(SAMPLE.file_upload, null)).toMatchObject({ earned: 0, manual: false });
  });

  it.each<[ScoringMode, number, number, number]>([
    ['all_or_nothing', 2, 4, 50],
    ['proportional', 2.5, 4, 63],
  ])('scores a quiz %s; the scale adds nothing to the maximum', (scoring, score, maxScore, percentage) => {
    const questions = [SAMPLE.single_choice, SAMPLE.true_false, SAMPLE.multiple_choice, SAMPLE.long_answer, SAMPLE.scale];
    const result = gradeQuiz(questions, { sc: 1, tf: 'false', mc: [0], la: 'эссе', sl: 2 }, { passingScore: 60, scoring });
    expect(result).toMatchObject({ score, maxScore, percentage, pendingManual: 1 });
    expect(result.status).toBe(percentage >= 60 ? 'passed' : 'failed');
  });

  it('with the defaults gives the spec exact score: correct answers of all questions', () => {
    const defaults = ALL.filter((q) => !['scale'].includes(q.type));
    const result = gradeQuiz(defaults, { sc: 1, tf: 'false', sa: 'трудовой кодекс' }, { passingScore: 70 });
    expect(result).toMatchObject({ score: 3, maxScore: 13, percentage: 23, status: 'failed' });
  });
});

describe('answers in the order shown become the quiz terms', () => {
  const shown = Object.fromEntries(presentQuestions(ALL, random, 'terms').map((s) => [s.type, s]));

  it('maps shown indexes back, so a right answer grades right in any shuffle', () => {
    const sc = shown.single_choice;
    const picked = sc.optionOrder.indexOf(1);
    expect(toQuizTerms(sc, picked)).toEqual({ ok: true, value: 1 });
    const or = shown.ordering;
    const inOrder = [0, 1, 2, 3].map((i) => or.optionOrder.indexOf(i));
    const ordered = toQuizTerms(or, inOrder);
    expect(ordered.ok && isAnswerCorrect(or, ordered.value)).toBe(true);
    const il = shown.image_labels;
    const labelled = toQuizTerms(il, { 0: il.rightOrder.indexOf(0), 1: il.rightOrder.indexOf(1), 2: il.rightOrder.indexOf(2) });
    expect(labelled.ok && isAnswerCorrect(il, labelled.value)).toBe(true);
  });

  it.each<[QuestionType, string, AnswerValue]>([
    ['single_choice', 'index out of range', 3],
    ['single_choice', 'a list', [0]],
    ['multiple_choice', 'negative index', [-1]],
    ['ordering', 'duplicated items', [0, 0, 1, 2]],
    ['ordering', 'too few', [0, 1]],
    ['matching', 'left out of range', { 5: 0 }],
    ['true_false', 'not a truth value', 'maybe'],
    ['numeric', 'a list', [3]],
    ['scale', 'point beyond the scale', 5],
    ['matrix', 'column out of range', { 0: 3 }],
    ['matrix', 'row out of range', { 4: 0 }],
    ['hotspot', 'off the image', { x: 101, y: 5 }],
    ['hotspot', 'extra fields', { x: 1, y: 5, z: 1 }],
    ['image_labels', 'label out of range', { 0: 3 }],
    ['file_upload', 'a foreign URL', 'https://example.com/a.pdf'],
    ['file_upload', 'a path outside uploads', '/api/files/../secret'],
  ])('%s: refuses %s', (type, _name, answer) => {
    expect(toQuizTerms(shown[type], answer)).toEqual({ ok: false });
  });

  it('takes blank answers as unanswered and duplicated choices as one', () => {
    expect(toQuizTerms(shown.matrix, {})).toEqual({ ok: true, value: null });
    expect(toQuizTerms(shown.fill_blanks, ['', ' '])).toEqual({ ok: true, value: null });
    const mc = shown.multiple_choice;
    expect(toQuizTerms(mc, [0, 0])).toEqual({ ok: true, value: [mc.optionOrder[0]] });
    expect(toQuizTerms(shown.numeric, ' 3,14 ')).toEqual({ ok: true, value: '3,14' });
  });
});

describe('schemas, texts and time', () => {
  it('holds the new types to their shape, in Russian', () => {
    const issue = (q: object) => questionSchema.safeParse(q).error?.issues[0]?.message;
    expect(issue({ ...SAMPLE.scale, options: ['один'] })).toBe('У шкалы должно быть от 2 до 10 делений');
    expect(issue({ ...SAMPLE.matrix, correctAnswers: [0] })).toBe('Для каждой строки матрицы выберите верный столбец');
    expect(issue({ ...SAMPLE.numeric, correctAnswer: 'пи' })).toBe('Правильный ответ должен быть числом');
    expect(issue({ ...SAMPLE.hotspot, areas: [{ shape: 'rect', x: 120, y: 0, width: 1, height: 1 }] })).toBe(
      'Координаты должны быть от 0 до 100 (% размера изображения)',
    );
    for (const q of ALL) expect(questionSchema.safeParse(q).success).toBe(true);
  });

  it('reads numbers as people type them', () => {
    expect([parseNumber('3,5'), parseNumber(' 1 000,25 '), parseNumber('-2'), parseNumber('1e3')]).toEqual([
      3.5, 1000.25, -2, 1000,
    ]);
    expect([parseNumber(''), parseNumber('0x10'), parseNumber('1,2,3'), parseNumber(null)].every(Number.isNaN)).toBe(true);
  });

  it('puts answers into words', () => {
    expect(answerText(SAMPLE.matrix, { 1: 1, 0: 0 })).toBe('Пожар — Огнетушитель; Потоп — Насос');
    expect(answerText(SAMPLE.scale, 4)).toBe('5 — Полностью согласен');
    expect(answerText(SAMPLE.hotspot, { x: 12.34, y: 5 })).toBe('Точка: 12.3% по горизонтали, 5% по вертикали');
    expect(answerText(SAMPLE.file_upload, '/api/files/отчёт.pdf')).toBe('отчёт.pdf');
    expect(correctAnswerText(SAMPLE.image_labels)).toBe('Точка 1 — Аорта; Точка 2 — Желудочек; Точка 3 — Предсердие');
    expect([correctAnswerText(SAMPLE.hotspot), correctAnswerText(SAMPLE.scale), correctAnswerText(SAMPLE.long_answer)]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('applies the time limit with its grace', () => {
    const start = new Date('2026-01-01T10:00:00Z');
    const deadline = deadlineOf(start, 1.5)!;
    expect(deadline.toISOString()).toBe('2026-01-01T10:01:30.000Z');
    expect([deadlineOf(start, 0), deadlineOf(start, null)]).toEqual([null, null]);
    expect(isLate(deadline, new Date('2026-01-01T10:01:35Z'))).toBe(false);
    expect(isLate(deadline, new Date('2026-01-01T10:01:35.001Z'))).toBe(true);
    expect(isLate(null, new Date('2030-01-01'))).toBe(false);
    expect(secondsLeft(deadline, new Date('2026-01-01T10:00:00.500Z'))).toBe(90);
    expect(secondsLeft(deadline, new Date('2026-01-01T11:00:00Z'))).toBe(0);
    expect([formatCountdown(245), formatCountdown(8.2), formatCountdown(-3)]).toEqual(['4:05', '0:09', '0:00']);
  });
});
