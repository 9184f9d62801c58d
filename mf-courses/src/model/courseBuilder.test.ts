import { GENERATION_MSG, type Course, type GenerationJob } from '@portal/contracts';
import { ApiError } from '@portal/web-core';
import {
  GENERATION_INTERRUPTED,
  builderFieldOf,
  draftReadyText,
  failureOf,
  phaseOfJob,
  stepIndexOf,
  emptyBuilderForm,
  firstProblem,
  modulesLabel,
  progressOf,
  quizzesLabel,
  stageMarks,
  summarizeDraft,
  toGenerateRequest,
  type BuilderForm,
} from './courseBuilder';
import { generationJob } from './generationJob.fixture';

const filled = (changes: Partial<BuilderForm> = {}): BuilderForm => ({
  ...emptyBuilderForm(),
  topic: '  Переговоры  ',
  audience: 'Менеджеры по продажам',
  goals: [{ text: 'Готовить повестку' }, { text: '' }, { text: '  Отвечать на возражения ' }],
  ...changes,
});

describe('turning the builder form into the request', () => {
  it('trims the texts, drops blank goals, leaves blank counts automatic and keeps the quizzes on', () => {
    expect(toGenerateRequest(filled())).toEqual({
      ok: true,
      values: {
        topic: 'Переговоры',
        audience: 'Менеджеры по продажам',
        goals: ['Готовить повестку', 'Отвечать на возражения'],
        level: 'Начальный',
        withQuizzes: true,
      },
    });
  });

  it('sends the counts and the choices the author made', () => {
    const result = toGenerateRequest(
      filled({ modulesCount: ' 4 ', lessonsPerModule: '3', level: 'Продвинутый', withQuizzes: false }),
    );
    expect(result).toMatchObject({
      ok: true,
      values: { modulesCount: 4, lessonsPerModule: 3, level: 'Продвинутый', withQuizzes: false },
    });
  });

  it('names every missing field with the contract’s Russian message', () => {
    const result = toGenerateRequest(emptyBuilderForm());
    expect(result).toEqual({
      ok: false,
      errors: {
        topic: GENERATION_MSG.topicRequired,
        audience: GENERATION_MSG.audienceRequired,
        goals: GENERATION_MSG.goalsRequired,
      },
    });
  });

  it('refuses counts out of range or not whole numbers with the range messages', () => {
    for (const [modulesCount, lessonsPerModule] of [
      ['0', '11'],
      ['13', '0'],
      ['2.5', 'много'],
    ]) {
      expect(toGenerateRequest(filled({ modulesCount, lessonsPerModule }))).toEqual({
        ok: false,
        errors: { modulesCount: GENERATION_MSG.modulesRange, lessonsPerModule: GENERATION_MSG.lessonsRange },
      });
    }
  });

  it('puts a too-long goal’s message beside that goal', () => {
    const result = toGenerateRequest(filled({ goals: [{ text: 'Коротко' }, { text: 'д'.repeat(301) }] }));
    expect(result).toEqual({ ok: false, errors: { 'goals.1.text': GENERATION_MSG.goalTooLong } });
  });

  it('refuses more than ten goals', () => {
    const goals = Array.from({ length: 11 }, (_, i) => ({ text: `Цель ${i + 1}` }));
    expect(toGenerateRequest(filled({ goals }))).toEqual({ ok: false, errors: { goals: GENERATION_MSG.tooManyGoals } });
  });
});

describe('where the focus goes after a refused submit', () => {
  const error = (message: string) => ({ type: 'check', message });

  it('goes to the first field in error in the order the form shows them', () => {
    expect(firstProblem({ topic: error('a'), audience: error('b') })).toBe('topic');
    expect(firstProblem({ modulesCount: error('a'), lessonsPerModule: error('b') })).toBe('modulesCount');
    expect(firstProblem({})).toBeNull();
  });

  it('goes to the goal in error, or to the first goal when the message is the list’s', () => {
    const goals = [undefined, { text: error('a') }, { text: error('b') }];
    expect(firstProblem({ goals, modulesCount: error('c') } as Parameters<typeof firstProblem>[0])).toBe('goals.1.text');
    expect(
      firstProblem({ goals: { root: error('a') }, lessonsPerModule: error('b') } as Parameters<typeof firstProblem>[0]),
    ).toBe('goals.0.text');
  });
});

describe('the fields a server’s refusal names', () => {
  it('finds the field of a path, a goal by its place, and nothing for what the form does not show', () => {
    expect(builderFieldOf(['topic'])).toBe('topic');
    expect(builderFieldOf('goals.2'.split('.'))).toBe('goals.2.text');
    expect(builderFieldOf(['goals', 0])).toBe('goals.0.text');
    expect(builderFieldOf(['goals'])).toBe('goals');
    expect(builderFieldOf(['withQuizzes'])).toBeNull();
    expect(builderFieldOf([])).toBeNull();
  });
});

describe('the summary of the draft', () => {
  const lesson = (blocks: Array<'text' | 'quiz'>, quizId = 'q1') => ({
    blocks: blocks.map((type, i) =>
      type === 'quiz'
        ? { id: `b${i}`, type, order: i + 1, lessonId: 'l', content: { quizId, questionsCount: 3 } }
        : { id: `b${i}`, type, order: i + 1, lessonId: 'l', content: { text: 'Текст' } },
    ),
  });
  const course = (modules: Array<Array<ReturnType<typeof lesson>>>) =>
    ({ modules: modules.map((lessons) => ({ lessons })) }) as unknown as Pick<Course, 'modules'>;

  it('counts a lesson that only holds a quiz as a quiz, not as a lesson', () => {
    const summary = summarizeDraft(
      course([
        [lesson(['text']), lesson(['text', 'text'])],
        [lesson(['text']), lesson(['quiz'], 'q1')],
        [lesson(['quiz'], 'q2')],
      ]),
    );
    expect(summary).toEqual({ modules: 3, lessons: 3, quizzes: 2 });
  });

  it('counts a lesson mixing text and a quiz as both', () => {
    expect(summarizeDraft(course([[lesson(['text', 'quiz'], 'q9')]]))).toEqual({ modules: 1, lessons: 1, quizzes: 1 });
  });

  it('says it with the Russian plural forms', () => {
    expect(draftReadyText({ modules: 5, lessons: 10, quizzes: 5 })).toBe('Черновик готов: 5 модулей, 10 уроков, 5 квизов');
    expect(draftReadyText({ modules: 1, lessons: 2, quizzes: 0 })).toBe('Черновик готов: 1 модуль, 2 урока, 0 квизов');
    expect(draftReadyText({ modules: 21, lessons: 22, quizzes: 1 })).toBe('Черновик готов: 21 модуль, 22 урока, 1 квиз');
    expect([2, 4, 11, 12, 14, 101, 111].map(modulesLabel)).toEqual([
      '2 модуля',
      '4 модуля',
      '11 модулей',
      '12 модулей',
      '14 модулей',
      '101 модуль',
      '111 модулей',
    ]);
    expect([3, 25].map(quizzesLabel)).toEqual(['3 квиза', '25 квизов']);
  });
});

describe('the progress shown', () => {
  const job = (stage: GenerationJob['stage'], status: GenerationJob['status'] = 'running') => ({ stage, status });

  it('keeps the bar within 0..100 with the stage’s label', () => {
    expect(progressOf({ stage: 'lessons', progress: 41.6 })).toEqual({ value: 42, label: 'Пишем уроки' });
    expect(progressOf({ stage: 'done', progress: 130 })).toEqual({ value: 100, label: 'Готово' });
  });

  it('marks the stages before the current one done', () => {
    expect(stageMarks(job('quizzes'), true).map((s) => [s.label, s.mark])).toEqual([
      ['Строим структуру курса', 'done'],
      ['Пишем уроки', 'done'],
      ['Составляем квизы', 'current'],
      ['Сохраняем черновик', 'todo'],
    ]);
  });

  it('leaves the quizzes out when none were asked for, and marks everything done at the end', () => {
    expect(stageMarks(job('saving'), false).map((s) => s.mark)).toEqual(['done', 'done', 'current']);
    expect(stageMarks(job('done', 'succeeded'), false).map((s) => s.stage)).toEqual(['structure', 'lessons', 'saving']);
    expect(stageMarks(job('done', 'succeeded'), true).every((s) => s.mark === 'done')).toBe(true);
  });
});

describe('where an answer leaves the dialog', () => {
  const job = generationJob;

  it('shows the progress while running and the draft once it succeeded, at the third step', () => {
    expect(phaseOfJob(job({}))).toMatchObject({ step: 'running' });
    const done = phaseOfJob(job({ status: 'succeeded', stage: 'done', progress: 100, courseId: 'c1' }));
    expect(done).toMatchObject({ step: 'succeeded', courseId: 'c1', late: false });
    expect(stepIndexOf(done)).toBe(2);
    expect(phaseOfJob(job({ status: 'succeeded', courseId: 'c1' }), true)).toMatchObject({ late: true });
  });

  it('says a cancel and a failure in the server’s Russian words, at the second step', () => {
    const cancelled = phaseOfJob(job({ status: 'cancelled', error: GENERATION_MSG.cancelled }));
    expect(cancelled).toEqual({ step: 'cancelled', message: 'Генерация отменена. Ничего не сохранено.' });
    expect(stepIndexOf(cancelled)).toBe(1);
    expect(phaseOfJob(job({ status: 'failed', error: GENERATION_MSG.providerTimeout }))).toEqual({
      step: 'failed',
      message: GENERATION_MSG.providerTimeout,
    });
  });

  it('reads a 404 while polling as a job lost with a restarted service', () => {
    expect(failureOf(new ApiError(GENERATION_MSG.jobNotFound, 404))).toEqual({ step: 'failed', message: GENERATION_INTERRUPTED });
    expect(failureOf(new ApiError('Нет связи с сервером. Проверьте подключение', 0))).toEqual({
      step: 'failed',
      message: 'Нет связи с сервером. Проверьте подключение',
    });
    expect(stepIndexOf({ step: 'form', error: null })).toBe(0);
  });
});
