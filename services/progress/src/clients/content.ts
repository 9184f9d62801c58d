import { z } from 'zod';
import {
  CONTENT_MSG,
  PROGRESS_MSG,
  QUIZ_MSG,
  SCORM_MSG,
  questionSchema,
  quizInputSchema,
  type BlockRecord,
  type CourseOutline,
  type Quiz,
  type ScormLessonBinding,
} from '@portal/contracts';
import { HttpError, notFound, unavailable, type Logger, type Upstreams } from '@portal/service-kit';

/** A quiz as the content service's internal route gives it: answers included, and where it stands. */
export type StoredQuiz = Quiz & { lessonId?: string | null; courseId?: string | null; courseVersion?: number | null };

const storedQuizSchema = quizInputSchema.extend({
  id: z.string().min(1),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  lessonId: z.string().nullish(),
  courseVersion: z.number().int().nullish(),
  // The fixed questions and an attempt's draw from the bank (at most 10 tags × 50).
  questions: z.array(questionSchema).max(1000).default([]),
});

export interface ContentClient {
  /**
   * The course's outline as the learner may see it: modules and lessons without their content
   * (their own token is forwarded, so visibility is content's rule).
   */
  getOutline(courseId: string, authorization: string): Promise<CourseOutline>;
  /** One lesson with its blocks, as the learner may see it (404 otherwise). */
  getLesson(lessonId: string, authorization: string): Promise<BlockRecord>;
  /**
   * The full quiz, answers included: never sent to a learner as is. With an attempt's seed its
   * questions include that attempt's draw from the course's question bank.
   */
  getQuiz(quizId: string, drawSeed?: string, options?: { pin?: boolean }): Promise<StoredQuiz>;
  /**
   * 404 unless the learner may see the quiz (a lesson they can see holds it): asked with their own
   * token, so it is the content service's rule, not a copy of it.
   */
  assertQuizVisible(quizId: string, authorization: string): Promise<void>;
  /**
   * The courses whose learners' answers and statistics a person may see: 'all' for an ADMIN, the
   * ones a CURATOR owns or co-authors (the content service's rule, asked with the person as data),
   * none for anyone else.
   */
  curatedCourses(person: { id: string; role: string }): Promise<CuratedCourses>;
  /** Tells the content service a learner worked in the course: a curator's delete then archives it. */
  markLearnerActivity(courseId: string): Promise<void>;
  /** The lesson's SCO and its attempt setting; null when the lesson holds no SCORM block. */
  scormBinding(lessonId: string): Promise<ScormLessonBinding | null>;
}

export type CuratedCourses = 'all' | Set<string>;

/** Whether a course is among those a person curates. */
export const curates = (courses: CuratedCourses, courseId: string | null | undefined): boolean =>
  courses === 'all' || (!!courseId && courses.has(courseId));

interface ContentClientOptions {
  /** The content service's replicas. */
  content: Upstreams;
  internalToken: string;
  timeoutMs: number;
  logger: Logger;
}

/** Talks to the content service over HTTP: it owns courses and quizzes, this service never reads its database. */
export function contentClient({ content, internalToken, timeoutMs, logger }: ContentClientOptions): ContentClient {
  async function call(path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; body: unknown }> {
    let res: Response;
    try {
      res = await content.fetch(path, {
        method,
        headers: { accept: 'application/json', ...headers },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      logger.warn({ path, err: (err as Error).message }, 'content service unreachable');
      throw unavailable(PROGRESS_MSG.contentUnavailable);
    }
    const body: unknown = await res.json().catch(() => null);
    return { status: res.status, body };
  }

  /** A refusal the content service gave the learner is passed on as is; anything else is its outage. */
  function refuse(status: number, body: unknown, missing: string): never {
    const { message, field } = (body ?? {}) as { message?: string; field?: string };
    if (status === 404) throw notFound(missing);
    if (status === 400 && message) throw new HttpError(400, message, 'bad_request', field);
    logger.warn({ status, message }, 'content service refused');
    throw unavailable(PROGRESS_MSG.contentUnavailable);
  }

  return {
    async getOutline(courseId, authorization) {
      const { status, body } = await call(`/api/courses/${encodeURIComponent(courseId)}/outline`, { authorization });
      if (status !== 200) refuse(status, body, CONTENT_MSG.courseNotFound);
      return body as CourseOutline;
    },
    async getLesson(lessonId, authorization) {
      const { status, body } = await call(`/api/blocks/${encodeURIComponent(lessonId)}`, { authorization });
      if (status !== 200) refuse(status, body, PROGRESS_MSG.lessonNotFound);
      return body as BlockRecord;
    },
    async getQuiz(quizId, drawSeed, options) {
      const params = new URLSearchParams();
      if (drawSeed) params.set('drawSeed', drawSeed);
      // An attempt starts on the quiz: the course version it is read from is kept by pruning.
      if (options?.pin) params.set('pin', '1');
      const query = params.size ? `?${params}` : '';
      const { status, body } = await call(`/internal/quizzes/${encodeURIComponent(quizId)}${query}`, {
        'x-internal-token': internalToken,
      });
      // The content service checks quiz ids by its own rule; any refusal of the id means there is no such quiz.
      if (status === 400 || status === 404) throw notFound(QUIZ_MSG.quizNotFound);
      if (status !== 200) refuse(status, body, QUIZ_MSG.quizNotFound);
      const parsed = storedQuizSchema.safeParse(body);
      if (!parsed.success) {
        logger.error({ quizId, issue: parsed.error.issues[0] }, 'content service answered a quiz of an unknown shape');
        throw unavailable(PROGRESS_MSG.contentUnavailable);
      }
      return { createdAt: '', updatedAt: '', ...parsed.data } as StoredQuiz;
    },
    async curatedCourses(person) {
      if (person.role === 'ADMIN') return 'all';
      if (person.role !== 'CURATOR') return new Set<string>();
      const { status, body } = await call(`/internal/courses/editable?userId=${encodeURIComponent(person.id)}`, {
        'x-internal-token': internalToken,
      });
      if (status !== 200) refuse(status, body, CONTENT_MSG.courseNotFound);
      return new Set((body as { courseIds: string[] }).courseIds);
    },
    async markLearnerActivity(courseId) {
      const { status, body } = await call(
        `/internal/courses/${encodeURIComponent(courseId)}/learner-activity`,
        { 'x-internal-token': internalToken },
        'POST',
      );
      if (status !== 204) refuse(status, body, CONTENT_MSG.courseNotFound);
    },
    async scormBinding(lessonId) {
      const { status, body } = await call(`/internal/scorm/lessons/${encodeURIComponent(lessonId)}`, {
        'x-internal-token': internalToken,
      });
      if (status === 404 || status === 400) return null;
      if (status !== 200) refuse(status, body, SCORM_MSG.packageNotFound);
      return body as ScormLessonBinding;
    },
    async assertQuizVisible(quizId, authorization) {
      const { status, body } = await call(`/api/quizzes/${encodeURIComponent(quizId)}`, { authorization });
      if (status === 400 || status === 404) throw notFound(QUIZ_MSG.quizNotFound);
      if (status !== 200) refuse(status, body, QUIZ_MSG.quizNotFound);
    },
  };
}
