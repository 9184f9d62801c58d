import {
  quizDrawsSchema,
  CONTENT_MSG,
  contentBlocksOf,
  type BlockRecord,
  type BlockSummary,
  type ContentBlock,
  type Course,
  type CourseOutline,
  type CourseSummary,
  type Lesson,
  type Quiz,
  type QuizSettings,
} from '@portal/contracts';
import { ApiError } from '@portal/web-core';
import { newId } from '../model/ids';
import type { EditorBackend } from './backend';
import { SAMPLE_COURSE, SAMPLE_QUIZ } from './sampleData';

/** Long enough for the save indicator to be seen, short enough not to bother. */
const LATENCY_MS = 250;
const later = <T>(value: () => T): Promise<T> =>
  new Promise((resolve, reject) =>
    setTimeout(() => {
      try {
        resolve(value());
      } catch (err) {
        reject(err);
      }
    }, LATENCY_MS),
  );

const DEMO_NO_COURSE_COPY = 'В демонстрации курс не копируется';

const missing = () => new ApiError(CONTENT_MSG.blockNotFound, 404);

/**
 * The demo routes' backend: a private copy of the sample course and quiz, changed in memory only.
 * Nothing here calls the server; uploads become object URLs of the chosen file.
 */
export function memoryBackend(): EditorBackend {
  const course: Course = structuredClone(SAMPLE_COURSE);
  const quizzes = new Map<string, Quiz>([[SAMPLE_QUIZ.id, structuredClone(SAMPLE_QUIZ)]]);
  const now = () => new Date().toISOString();

  const lessonRecord = ({ blocks, ...l }: Lesson): BlockRecord => ({
    ...l,
    type: 'LESSON',
    content: JSON.stringify(blocks),
    moduleId: l.moduleId,
  });
  /** What the server's writes answer: the record without a lesson's content. */
  const summaryOf = ({ content, ...record }: BlockRecord): BlockSummary => {
    if (record.type === 'MODULE') return { ...record, description: content };
    const blocks = contentBlocksOf({ type: 'LESSON', content });
    return { ...record, blocksCount: blocks.length, hasQuiz: blocks.some((b) => b.type === 'quiz') };
  };
  const moduleRecord = (m: Course['modules'][number]): BlockRecord => ({
    id: m.id,
    version: m.version,
    type: 'MODULE',
    title: m.title,
    content: m.description,
    description: m.description,
    courseId: m.courseId,
    moduleId: null,
    position: m.position,
    status: m.status,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  });
  const renumber = () =>
    course.modules.forEach((m, i) => {
      m.position = i;
      m.lessons.forEach((l, j) => {
        l.position = j;
        l.moduleId = m.id;
      });
    });
  const records = () => course.modules.flatMap((m) => [moduleRecord(m), ...m.lessons.map(lessonRecord)]);
  const findLesson = (id: string) => course.modules.flatMap((m) => m.lessons).find((l) => l.id === id);
  const withLessonId = (blocks: ContentBlock[], lessonId: string) =>
    blocks.map((b, i) => ({ ...b, id: b.id ?? newId(), order: i + 1, lessonId }) as ContentBlock);

  const backend: EditorBackend = {
    demo: true,
    loadOutline: () =>
      later((): CourseOutline => {
        const { modules, ...fields } = structuredClone(course);
        return {
          ...fields,
          modulesCount: modules.length,
          lessonsCount: modules.reduce((n, m) => n + m.lessons.length, 0),
          modules: modules.map((m) => ({
            id: m.id,
            version: m.version,
            title: m.title,
            description: m.description,
            position: m.position,
            status: m.status,
            lessons: m.lessons.map((l) => ({
              id: l.id,
              version: l.version,
              title: l.title,
              status: l.status,
              moduleId: l.moduleId,
              position: l.position,
              blocksCount: l.blocks.length,
              hasQuiz: l.blocks.some((b) => b.type === 'quiz'),
              hasScorm: l.blocks.some((b) => b.type === 'scorm'),
              updatedAt: l.updatedAt,
            })),
          })),
        };
      }),
    // The demo has no versions and no second author, so it never meets a conflict to copy for.
    getCourse: (id) => backend.loadOutline(id),
    copyCourse: () =>
      later(() => {
        throw new ApiError(DEMO_NO_COURSE_COPY, 400);
      }),
    listCourses: () =>
      later((): CourseSummary[] => {
        const { modules, ...summary } = structuredClone(course);
        return [{ ...summary, modulesCount: modules.length, lessonsCount: modules.reduce((n, m) => n + m.lessons.length, 0) }];
      }),
    updateCourse: (id, patch) =>
      later(() => {
        Object.assign(course, patch, { updatedAt: now() });
        return { id };
      }),
    getBlock: (id) =>
      later(() => {
        const record = records().find((r) => r.id === id);
        if (!record) throw missing();
        return record;
      }),
    createModule: (_courseId, title, position) =>
      later(() => {
        const mod = {
          id: `demo-${newId()}`,
          title,
          description: '',
          courseId: course.id,
          position,
          status: 'draft' as const,
          version: 0,
          createdAt: now(),
          updatedAt: now(),
          lessons: [],
        };
        course.modules.splice(position, 0, mod);
        renumber();
        return moduleRecord(mod);
      }),
    createLesson: (input) =>
      later(() => {
        const mod = course.modules.find((m) => m.id === input.moduleId);
        if (!mod) throw new ApiError(CONTENT_MSG.moduleNotFound, 404);
        const id = `demo-${newId()}`;
        const blocks = withLessonId(input.content ?? [], id);
        const created: Lesson = {
          id,
          version: 0,
          title: input.title ?? 'урок',
          description: input.description ?? '',
          status: input.status ?? 'draft',
          courseId: course.id,
          moduleId: mod.id,
          position: mod.lessons.length,
          blocks,
          createdAt: now(),
          updatedAt: now(),
        };
        mod.lessons.splice(input.position ?? mod.lessons.length, 0, created);
        renumber();
        return lessonRecord(created);
      }),
    updateBlock: (id, patch) =>
      later(() => {
        const l = findLesson(id);
        if (l) {
          const { content, ...fields } = patch;
          Object.assign(l, { ...fields, blocks: content ? withLessonId(content, id) : l.blocks, updatedAt: now() });
          return summaryOf(lessonRecord(l));
        }
        const m = course.modules.find((x) => x.id === id);
        if (!m) throw missing();
        Object.assign(m, { title: patch.title ?? m.title, status: patch.status ?? m.status, updatedAt: now() });
        return summaryOf(moduleRecord(m));
      }),
    deleteBlock: (id) =>
      later(() => {
        course.modules = course.modules.filter((m) => m.id !== id);
        course.modules.forEach((m) => (m.lessons = m.lessons.filter((l) => l.id !== id)));
        renumber();
      }),
    copyLesson: (id) =>
      later(() => {
        const source = findLesson(id);
        const mod = course.modules.find((m) => m.lessons.some((l) => l.id === id));
        if (!source || !mod) throw missing();
        const copyId = `demo-${newId()}`;
        const blocks = source.blocks.map((b) => ({ ...structuredClone(b), id: newId(), lessonId: copyId }) as ContentBlock);
        const copy: Lesson = {
          ...structuredClone(source),
          id: copyId,
          title: `${source.title}${CONTENT_MSG.copySuffix}`,
          status: 'draft',
          blocks,
        };
        mod.lessons.splice(mod.lessons.indexOf(source) + 1, 0, copy);
        renumber();
        return lessonRecord(copy);
      }),
    reorder: (items) =>
      later(() => {
        for (const item of items) {
          const mod = course.modules.find((m) => m.id === item.id);
          if (mod) {
            course.modules.splice(course.modules.indexOf(mod), 1);
            course.modules.splice(item.position, 0, mod);
            continue;
          }
          const l = findLesson(item.id);
          if (!l) continue;
          const from = course.modules.find((m) => m.lessons.includes(l));
          const to = course.modules.find((m) => m.id === (item.moduleId ?? from?.id));
          if (!from || !to) continue;
          from.lessons.splice(from.lessons.indexOf(l), 1);
          to.lessons.splice(item.position, 0, l);
        }
        renumber();
        return records().map(summaryOf);
      }),
    importLessons: (input) =>
      later(() => {
        const mod = course.modules.find((m) => m.id === input.moduleId);
        if (!mod) throw new ApiError(CONTENT_MSG.moduleNotFound, 404);
        const created = input.lessonIds.map((sourceId) => {
          const source = findLesson(sourceId);
          if (!source) throw missing();
          const id = `demo-${newId()}`;
          const blocks = source.blocks.map((b) => ({ ...structuredClone(b), id: newId(), lessonId: id }) as ContentBlock);
          return {
            ...structuredClone(source),
            id,
            status: 'draft' as const,
            moduleId: mod.id,
            blocks,
          };
        });
        mod.lessons.push(...created);
        renumber();
        return created.map(lessonRecord);
      }),
    listQuizzes: (search) =>
      later(() =>
        [...quizzes.values()]
          .filter((q) => !search || q.title.toLocaleLowerCase('ru-RU').includes(search.toLocaleLowerCase('ru-RU')))
          .map(({ questions, ...q }) => ({
            ...q,
            description: q.description ?? '',
            courseId: q.courseId ?? null,
            questionsCount: questions.length,
          })),
      ),
    getQuiz: (id) =>
      later(() => {
        const quiz = quizzes.get(id);
        if (!quiz) throw new ApiError('Квиз не найден', 404);
        return structuredClone(quiz);
      }),
    saveQuiz: (id, input) =>
      later(() => {
        const current = id ? quizzes.get(id) : undefined;
        const quiz: Quiz = {
          id: current?.id ?? `demo-${newId()}`,
          version: (current?.version ?? -1) + 1,
          title: input.title.trim(),
          description: input.description ?? current?.description ?? '',
          courseId: input.courseId ?? current?.courseId ?? null,
          questions: (input.questions ?? current?.questions ?? []).map((q, i) => ({
            ...q,
            options: q.options ?? [],
            correctAnswers: q.correctAnswers ?? [],
            order: i + 1,
            points: q.points ?? 1,
          })),
          settings: { ...(current?.settings ?? SAMPLE_QUIZ.settings), ...(input.settings as Partial<QuizSettings>) },
          draws: input.draws ? quizDrawsSchema.parse(input.draws) : (current?.draws ?? []),
          createdAt: current?.createdAt ?? now(),
          updatedAt: now(),
        };
        quizzes.set(quiz.id, quiz);
        return structuredClone(quiz);
      }),
    upload: (file) =>
      later(() => ({
        url: URL.createObjectURL(file),
        name: file.name,
        originalName: file.name,
        size: file.size,
        mimeType: file.type || 'application/octet-stream',
      })),
  };
  return backend;
}
