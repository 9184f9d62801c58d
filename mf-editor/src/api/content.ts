import type {
  BankPage,
  BankQuestion,
  BankQuestionInput,
  BlockImportInput,
  BlockRecord,
  BlockSummary,
  Course,
  CourseAuthors,
  CourseOutline,
  CourseSummary,
  GenerationConfigInfo,
  GenerationJob,
  Quiz,
  QuizCreateInput,
  Page,
  QuizSummary,
  ScormAttemptSummary,
  ScormLessonAnalysis,
  ScormPackageSummary,
  UploadAccept,
  UploadedFile,
} from '@portal/contracts';
import { ApiError, apiRequest as webApiRequest, uploadForm, type RequestOptions } from '@portal/web-core';
import type { EditorBackend } from '../backend/backend';
import { newRecordId } from '../model/ids';

const id = (value: string) => encodeURIComponent(value);

type Versioned = { id: string; version: number };

/** Answers after which a create may have been made or not: no answer, or a gateway's 502, 503 or 504. */
const UNSURE = new Set([0, 502, 503, 504]);
/** The waits before asking a create again: two more asks within 2 s, then the error is the author's to see. */
const CREATE_RETRY_MS = [500, 1500];

/**
 * A create under an id chosen here, asked again while the answer is unsure: the server finds the
 * record an earlier ask made (the write landed, its answer did not) and answers it, so the author
 * never gets the same lesson twice.
 */
async function createOnce<T>(create: (id: string) => Promise<T>): Promise<T> {
  const id = newRecordId();
  for (let attempt = 0; ; attempt++) {
    try {
      return await create(id);
    } catch (err) {
      if (!(err instanceof ApiError) || !UNSURE.has(err.status) || attempt >= CREATE_RETRY_MS.length) throw err;
      await new Promise((resolve) => setTimeout(resolve, CREATE_RETRY_MS[attempt]));
    }
  }
}

/** How a request reaches the content service: web-core's client, or a test's stand-in for the server. */
export type ApiCall = <T>(path: string, options?: RequestOptions) => Promise<T>;

/** The editors' calls to the content service (courses, modules and lessons, plus quizzes, copy and import). */
export function createApiBackend(apiRequest: ApiCall): EditorBackend {
  /**
   * The version of every course, module, lesson and quiz as last read or written here: each write
   * sends the one it was based on (412 «Документ изменён другим пользователем» when another author
   * saved first) and keeps the one the answer names. One place, so no save can forget it.
   */
  const versions = new Map<string, number>();
  const seen = <T extends { id: string; version?: number }>(doc: T): T => {
    if (typeof doc.version === 'number') versions.set(doc.id, doc.version);
    return doc;
  };
  /** A course with its modules and lessons (the outline, or a course an accepted proposal answers). */
  const seenTree = <T extends Versioned & { modules: Array<Versioned & { lessons: Versioned[] }> }>(course: T): T => {
    seen(course);
    for (const m of course.modules) {
      seen(m);
      m.lessons.forEach(seen);
    }
    return course;
  };
  const withVersion = <T extends object>(docId: string, patch: T) =>
    versions.has(docId) ? { ...patch, version: versions.get(docId) } : patch;

  return {
    demo: false,
    loadOutline: (courseId) => apiRequest<CourseOutline>(`/courses/${id(courseId)}/outline`).then(seenTree),
    // Only the course's own version is taken: a lesson being edited keeps the one its text was based on.
    getCourse: (courseId) => apiRequest<CourseOutline>(`/courses/${id(courseId)}/outline`).then(seen),
    copyCourse: (courseId) => apiRequest<Course>(`/courses/${id(courseId)}/copy`, { method: 'POST' }).then(seen),
    listCourses: () => apiRequest<CourseSummary[]>('/courses'),
    updateCourse: (courseId, patch) =>
      apiRequest<CourseSummary>(`/courses/${id(courseId)}`, { method: 'PATCH', body: withVersion(courseId, patch) }).then(seen),
    getBlock: (blockId) => apiRequest<BlockRecord>(`/blocks/${id(blockId)}`).then(seen),
    createModule: (courseId, title, position) =>
      createOnce((blockId) =>
        apiRequest<BlockRecord>('/blocks', { method: 'POST', body: { id: blockId, type: 'MODULE', courseId, title, position } }),
      ).then(seen),
    createLesson: (input) =>
      createOnce((blockId) =>
        apiRequest<BlockRecord>('/blocks', { method: 'POST', body: { id: blockId, type: 'LESSON', ...input } }),
      ).then(seen),
    updateBlock: (blockId, patch) =>
      apiRequest<BlockSummary>(`/blocks/${id(blockId)}`, { method: 'PATCH', body: withVersion(blockId, patch) }).then(seen),
    deleteBlock: (blockId) => apiRequest<void>(`/blocks/${id(blockId)}`, { method: 'DELETE' }),
    copyLesson: (lessonId) => apiRequest<BlockRecord>(`/blocks/${id(lessonId)}/copy`, { method: 'POST' }).then(seen),
    reorder: (items) => apiRequest<BlockSummary[]>('/blocks/reorder', { method: 'POST', body: { blocks: items } }),
    // The new lessons' versions are kept, so renaming one before opening it is based on its version too.
    importLessons: (input: BlockImportInput) =>
      apiRequest<BlockRecord[]>('/blocks/import', { method: 'POST', body: input }).then((records) => records.map(seen)),
    listQuizzes: (search) => apiRequest<QuizSummary[]>('/quizzes', { query: { search } }),
    getQuiz: (quizId) => apiRequest<Quiz>(`/quizzes/${id(quizId)}`).then(seen),
    saveQuiz: (quizId, input: QuizCreateInput, version?: number) =>
      quizId
        ? apiRequest<Quiz>(`/quizzes/${id(quizId)}`, {
            method: 'PATCH',
            body: version === undefined ? withVersion(quizId, input) : { ...input, version },
          }).then(seen)
        : apiRequest<Quiz>('/quizzes', { method: 'POST', body: input }).then(seen),
    upload: (file: File, accept: UploadAccept, progress = {}) => {
      const form = new FormData();
      form.append('file', file);
      // Through XMLHttpRequest, the one way to see the bytes go out.
      return uploadForm<UploadedFile>('/upload/file', form, {
        query: { accept: accept === 'any' ? undefined : accept },
        ...progress,
      });
    },
    scorm: {
      upload: (file, courseId, mode, progress = {}) => {
        const form = new FormData();
        form.append('file', file);
        return uploadForm<ScormPackageSummary>('/scorm/packages', form, { query: { courseId, mode }, ...progress });
      },
      attempts: (courseId, page) =>
        apiRequest<Page<ScormAttemptSummary>>('/scorm/attempts', { query: { courseId, page, limit: 20 } }),
      analysis: (courseId, lessonId) =>
        apiRequest<ScormLessonAnalysis>('/scorm/attempts/analysis', { query: { courseId, lessonId } }),
    },
    generations: {
      config: () => apiRequest<GenerationConfigInfo>('/generations/config'),
      regenerate: (input) => apiRequest<GenerationJob>('/generations/regenerate', { method: 'POST', body: input }),
      getJob: (jobId) => apiRequest<GenerationJob>(`/generations/${id(jobId)}`),
      discard: (jobId) => apiRequest<GenerationJob>(`/generations/${id(jobId)}`, { method: 'DELETE' }),
      accept: (jobId) => apiRequest<Course>(`/generations/${id(jobId)}/accept`, { method: 'POST' }).then(seenTree),
    },
  };
}

export const apiBackend: EditorBackend = createApiBackend(webApiRequest);

/* Co-authors (not part of the EditorBackend: the demo course has none). */
export const authorsKey = (courseId: string) => ['editor', 'authors', courseId] as const;

export const fetchCourseAuthors = (courseId: string, signal?: AbortSignal) =>
  webApiRequest<CourseAuthors>(`/courses/${id(courseId)}/authors`, { signal });

export const addCourseCoAuthor = (courseId: string, email: string) =>
  webApiRequest<CourseAuthors>(`/courses/${id(courseId)}/authors`, { method: 'POST', body: { email } });

export const removeCourseCoAuthor = (courseId: string, userId: string) =>
  webApiRequest<CourseAuthors>(`/courses/${id(courseId)}/authors/${id(userId)}`, { method: 'DELETE' });

/* The course's question bank: not part of the EditorBackend (the demo has no bank). */
export const BANK_PAGE_SIZE = 20;
export const bankKey = (courseId: string, page?: number, tag?: string) =>
  page === undefined ? (['editor', 'bank', courseId] as const) : (['editor', 'bank', courseId, page, tag ?? ''] as const);

export const fetchBank = (courseId: string, page: number, tag: string, signal?: AbortSignal) =>
  webApiRequest<BankPage>(`/courses/${id(courseId)}/bank`, {
    query: { page, limit: BANK_PAGE_SIZE, tag: tag || undefined },
    signal,
  });

export const fetchBankQuestion = (courseId: string, questionId: string) =>
  webApiRequest<BankQuestion>(`/courses/${id(courseId)}/bank/${id(questionId)}`);

/** A new question (no id), or a change based on `version` (412 when someone saved since). */
export const saveBankQuestion = (courseId: string, questionId: string | null, input: BankQuestionInput, version?: number) =>
  questionId
    ? webApiRequest<BankQuestion>(`/courses/${id(courseId)}/bank/${id(questionId)}`, {
        method: 'PUT',
        body: { ...input, version },
      })
    : webApiRequest<BankQuestion>(`/courses/${id(courseId)}/bank`, { method: 'POST', body: input });

export const deleteBankQuestion = (courseId: string, questionId: string) =>
  webApiRequest<void>(`/courses/${id(courseId)}/bank/${id(questionId)}`, { method: 'DELETE' });
