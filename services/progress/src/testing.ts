import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  AttemptDetail,
  AuthResponse,
  ContentBlockInput,
  Course,
  Question,
  Quiz,
  QuizSettings,
  ScormPackageSummary,
  StartedAttempt,
} from '@portal/contracts';
import { api, startTestService, type TestService } from '@portal/devstack/testing';
import { startContent, uniqueTitle, type ContentTestBed } from '@portal/svc-content/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { progressOnStart, progressRouters } from './app';
import { progressConfigSchema, type ProgressConfig } from './config';
import { progressModels, type ProgressModels } from './models';

export interface ProgressTestBed extends ContentTestBed {
  progress: TestService<ProgressConfig>;
  store: ProgressModels;
  /** A fresh learner with a real token. */
  learner(role?: 'CANDIDATE' | 'CLIENT' | 'MANAGER', fullName?: string): Promise<AuthResponse>;
}

/** Real auth, content and progress services, each with its own database: progress reads courses and quizzes over HTTP. */
export async function startProgress(env: Record<string, string> = {}): Promise<ProgressTestBed> {
  const bed = await startContent();
  const progress = await startTestService<ProgressConfig>('progress', progressRouters, {
    schema: progressConfigSchema,
    env: { AUTH_URL: bed.auth.url, CONTENT_URL: bed.content.url, ...env },
  });
  await progressOnStart(progress.ctx);
  return {
    ...bed,
    progress,
    store: progressModels(progress.ctx.store),
    learner: (role = 'CANDIDATE', fullName = 'Анна Смирнова') => userWithRole(bed.auth, role, fullName),
    async close() {
      await progress.close();
      await bed.close();
    },
  };
}

export const question = (patch: Partial<Question> & Pick<Question, 'id' | 'type'>): Question => ({
  question: `Вопрос ${patch.id}`,
  options: [],
  correctAnswers: [],
  order: 0,
  points: 1,
  ...patch,
});

/** Three questions: single choice (answer 1), true/false (true), short answer ('Трудовой кодекс'). */
export const SAMPLE_QUESTIONS: Question[] = [
  question({
    id: 'q1',
    type: 'single_choice',
    question: 'Сколько дней отпуска?',
    options: ['14', '28', '56'],
    correctAnswers: [1],
    order: 0,
    explanation: 'Статья 115 ТК РФ',
  }),
  question({ id: 'q2', type: 'true_false', question: 'Испытательный срок бывает до 3 месяцев', correctAnswer: 'true', order: 1 }),
  question({ id: 'q3', type: 'short_answer', question: 'Главный закон о труде', correctAnswer: 'Трудовой кодекс', order: 2 }),
];

export interface SeededCourse {
  course: Course;
  quiz: Quiz;
  /** The lesson holding the quiz block, and a plain text lesson. */
  quizLessonId: string;
  textLessonId: string;
}

/**
 * A published course with one module of two lessons (text; text + quiz), and the quiz, built by a
 * curator through the content service's own API.
 */
export async function seedQuizCourse(
  bed: ContentTestBed,
  {
    settings = {},
    questions = SAMPLE_QUESTIONS,
    title = uniqueTitle('Курс'),
    quizTitle = uniqueTitle('Квиз'),
  }: { settings?: Partial<QuizSettings>; questions?: Question[]; title?: string; quizTitle?: string } = {},
): Promise<SeededCourse> {
  const token = bed.as.CURATOR.token;
  const call = async <T>(method: string, path: string, body?: unknown, expected = 201): Promise<T> => {
    const answer = await api<T>(bed.content.url, method, path, { token, body });
    if (answer.status !== expected) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const course = await call<Course>('POST', '/api/courses', {
    title,
    description: 'Обучение новых сотрудников',
    isPublished: true,
  });
  const quiz = await call<Quiz>('POST', '/api/quizzes', {
    title: quizTitle,
    description: 'Проверка знаний',
    courseId: course.id,
    questions,
    settings: { maxAttempts: 3, passingScore: 70, ...settings },
  });
  const mod = await call<{ id: string }>('POST', '/api/blocks', { type: 'MODULE', courseId: course.id, title: 'Модуль 1' });
  const textBlocks: ContentBlockInput[] = [{ type: 'text', content: { text: 'Введение в трудовое право' } }];
  const quizBlocks: ContentBlockInput[] = [
    { type: 'text', content: { text: 'Перед тестом' } },
    { type: 'quiz', content: { quizId: quiz.id, questionsCount: questions.length } },
  ];
  const text = await call<{ id: string }>('POST', '/api/blocks', {
    courseId: course.id,
    moduleId: mod.id,
    title: 'Введение',
    content: textBlocks,
    status: 'published',
  });
  const withQuiz = await call<{ id: string }>('POST', '/api/blocks', {
    courseId: course.id,
    moduleId: mod.id,
    title: 'Итоговый тест',
    content: quizBlocks,
    status: 'published',
  });
  const full = await call<Course>('GET', `/api/courses/${course.id}`, undefined, 200);
  return { course: full, quiz, quizLessonId: withQuiz.id, textLessonId: text.id };
}

/**
 * Takes the sample quiz (SAMPLE_QUESTIONS) of a seeded course through the real routes, passing it
 * (every answer right) or failing it (the true/false and short answers wrong): a pass completes its lesson.
 */
export async function takeSampleQuiz(
  bed: ProgressTestBed,
  token: string,
  seeded: SeededCourse,
  pass = true,
): Promise<AttemptDetail> {
  const started = await api<StartedAttempt>(bed.progress.url, 'POST', '/api/attempts', {
    token,
    body: { quizId: seeded.quiz.id, courseId: seeded.course.id, lessonId: seeded.quizLessonId },
  });
  if (started.status >= 300) throw new Error(`attempt start: ${started.status} ${JSON.stringify(started.body)}`);
  const answers = started.body.questions.map((q) => ({
    questionId: q.id,
    answer:
      q.type === 'single_choice'
        ? q.options.indexOf('28')
        : q.type === 'true_false'
          ? String(pass)
          : pass
            ? 'Трудовой кодекс'
            : 'не знаю',
    timeSpent: 5,
  }));
  const done = await api<AttemptDetail>(bed.progress.url, 'POST', `/api/attempts/${started.body.attempt.id}/submit`, {
    token,
    body: { answers },
  });
  if (done.status !== 200) throw new Error(`attempt submit: ${done.status} ${JSON.stringify(done.body)}`);
  return done.body;
}

/** The golf example (SCORM 2004 3rd Edition, one SCO), as a curator would upload it. */
const GOLF_PACKAGE = path.resolve(__dirname, '../../../e2e/fixtures/scorm/RuntimeBasicCalls_SCORM20043rdEdition.zip');

export interface ScormLessonSeed {
  courseId: string;
  lessonId: string;
  /** A plain text lesson of the same course, when asked for. */
  textLessonId?: string;
  packageId: string;
  scoId: string;
}

/**
 * A published course of the bed's CURATOR whose lesson plays the golf package's SCO, uploaded and
 * placed through the content service's own API; `withText` adds a plain lesson after it.
 */
export async function seedScormCourse(
  bed: ContentTestBed,
  { allowNewAttempt = false, withText = false, lessonTitle = 'Гольф: правила' } = {},
): Promise<ScormLessonSeed> {
  const token = bed.as.CURATOR.token;
  const made = async (path: string, body: unknown) => {
    const answer = await api<{ id: string }>(bed.content.url, 'POST', path, { token, body });
    if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.id;
  };
  const courseId = await made('/api/courses', { title: uniqueTitle('SCORM-курс'), isPublished: true });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await readFile(GOLF_PACKAGE))], { type: 'application/zip' }), 'golf.zip');
  const res = await fetch(`${bed.content.url}/api/scorm/packages?courseId=${courseId}&mode=lesson`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`package upload: ${res.status} ${await res.text()}`);
  const pkg = (await res.json()) as ScormPackageSummary;
  const scoId = pkg.scos[0].id;
  const moduleId = await made('/api/blocks', { type: 'MODULE', courseId, title: 'Модуль 1' });
  const lessonId = await made('/api/blocks', {
    courseId,
    moduleId,
    title: lessonTitle,
    status: 'published',
    content: [{ type: 'scorm', content: { packageId: pkg.id, scoId, version: pkg.version, allowNewAttempt } }],
  });
  const textLessonId = withText
    ? await made('/api/blocks', {
        courseId,
        moduleId,
        title: 'Введение',
        status: 'published',
        content: [{ type: 'text', content: { text: 'Введение' } }],
      })
    : undefined;
  return { courseId, lessonId, textLessonId, packageId: pkg.id, scoId };
}
