import { contentBlocksOf, type BlockRecord, type CourseOutline, type GenerationJob, type Quiz } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { startContent, waitForJob, type ContentTestBed } from '../../testing';

let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent({ AI_RATE_LIMIT: '1000' });
});
afterAll(() => bed.close());

const curator = () => bed.as.CURATOR.token;
const REQUEST = {
  topic: 'Охрана труда в офисе',
  audience: 'Новые сотрудники',
  goals: ['Знать правила эвакуации', 'Оказывать первую помощь'],
};

describe('what the course builder made says so, and only that', () => {
  it('marks the modules, lessons and quizzes of a built course as generated, and not a module added by hand', async () => {
    const started = await api<GenerationJob>(bed.content.url, 'POST', '/api/courses/generate', {
      token: curator(),
      body: REQUEST,
    });
    expect(started.status).toBe(202);
    const job = await waitForJob(bed, curator(), started.body.id);
    expect(job.status).toBe('succeeded');

    const outline = await api<CourseOutline>(bed.content.url, 'GET', `/api/courses/${job.courseId}/outline`, {
      token: curator(),
    });
    expect(outline.status).toBe(200);
    expect(outline.body.modules.length).toBeGreaterThan(0);
    for (const mod of outline.body.modules) {
      expect(mod.generated).toBe(true);
      for (const lesson of mod.lessons) expect(lesson.generated).toBe(true);
    }
    const lessonId = outline.body.modules[0].lessons[0].id;
    const lesson = await api<BlockRecord>(bed.content.url, 'GET', `/api/blocks/${lessonId}`, { token: curator() });
    expect(lesson.body.generated).toBe(true);
    // The module's quiz, held by its quiz lesson.
    const quizLesson = outline.body.modules.flatMap((m) => m.lessons).find((l) => l.hasQuiz);
    expect(quizLesson).toBeDefined();
    const held = await api<BlockRecord>(bed.content.url, 'GET', `/api/blocks/${quizLesson!.id}`, { token: curator() });
    const quizId = contentBlocksOf(held.body).find((b) => b.type === 'quiz')?.content.quizId;
    const quiz = await api<Quiz>(bed.content.url, 'GET', `/api/quizzes/${String(quizId)}`, { token: curator() });
    expect(quiz.status).toBe(200);
    expect(quiz.body.generated).toBe(true);

    const byHand = await api<BlockRecord>(bed.content.url, 'POST', '/api/blocks', {
      token: curator(),
      body: { type: 'MODULE', courseId: job.courseId, title: 'Свой модуль' },
    });
    expect(byHand.status).toBe(201);
    expect(byHand.body).not.toHaveProperty('generated');
    const after = await api<CourseOutline>(bed.content.url, 'GET', `/api/courses/${job.courseId}/outline`, { token: curator() });
    expect(after.body.modules.find((m) => m.id === byHand.body.id)).not.toHaveProperty('generated');
  });
});
