import { z } from 'zod';
import {
  CANDIDATE_LINK_MSG,
  CONTENT_MSG,
  PROGRESS_MSG,
  QUIZ_MSG,
  SCORM_MSG,
  questionSchema,
  quizInputSchema,
  type CourseOutline,
  type InternalAttemptStartInput,
  type LessonOutline,
  type Quiz,
  type Role,
  type ScormLessonBinding,
} from '@portal/contracts';
import { HttpError, forbidden, notFound, unavailable, type Logger, type Upstreams } from '@portal/service-kit';

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

/** What an attempt's start takes from the content service, in one answer. */
export interface AttemptStartContent {
  quiz: StoredQuiz;
  course: { id: string; title: string };
  /** The lesson's outline entry (`retakeSince`: attempts before it do not count). */
  lesson: LessonOutline;
}

/** The content service's refusals of a start, as the learner's own reads gave them (the order it checks them in). */
const START_REFUSALS = new Set<string>([
  QUIZ_MSG.quizNotFound,
  CONTENT_MSG.courseNotFound,
  PROGRESS_MSG.lessonNotFound,
  PROGRESS_MSG.quizNotInLesson,
]);

export interface ContentClient {
  /**
   * Everything an attempt's start needs, in one call with the service identity and the learner as
   * data: the quiz as they take it (the published version's, pinned; with the attempt's draw from
   * the bank), the course and the lesson's entry, once the content service found the lesson in the
   * course, holding the quiz, both visible to them (404 with its text otherwise). `noteActivity`:
   * their first record in the course, noted there with the start (`markLearnerActivity`).
   */
  attemptStart(input: InternalAttemptStartInput): Promise<AttemptStartContent>;
  /** The course's outline as a person reads it, asked with the person as data (no personal flags). */
  outlineFor(courseId: string, person: { id: string; role: Role }): Promise<CourseOutline>;
  /**
   * The quiz a lesson of the course holds, as a person (given as data) reads the lesson: null when it
   * holds none; 404 (`lessonNotFound`) when the lesson is not the course's or hidden from them.
   */
  lessonQuizFor(courseId: string, lessonId: string, person: { id: string; role: Role }): Promise<string | null>;
  /**
   * The full quiz, answers included: never sent to a learner as is. With an attempt's seed its
   * questions include that attempt's draw from the course's question bank. With a person, 404 unless
   * they may see the quiz (for a learner: a lesson they can see holds it): asked with the service
   * identity and the person as data, so it is the content service's rule, not a copy of it.
   */
  getQuiz(quizId: string, drawSeed?: string, reader?: { id: string; role: Role }): Promise<StoredQuiz>;
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
  async function call(
    path: string,
    headers: Record<string, string>,
    method = 'GET',
    payload?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    let res: Response;
    try {
      res = await content.fetch(path, {
        method,
        headers: {
          accept: 'application/json',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: payload === undefined ? undefined : JSON.stringify(payload),
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

  /** A quiz the content service answered, checked: answers with an unknown shape are its outage. */
  function storedQuiz(quizId: string, body: unknown): StoredQuiz {
    const parsed = storedQuizSchema.safeParse(body);
    if (!parsed.success) {
      logger.error({ quizId, issue: parsed.error.issues[0] }, 'content service answered a quiz of an unknown shape');
      throw unavailable(PROGRESS_MSG.contentUnavailable);
    }
    return { createdAt: '', updatedAt: '', ...parsed.data } as StoredQuiz;
  }

  const internal = { 'x-internal-token': internalToken };

  return {
    async attemptStart(input) {
      const { status, body } = await call('/internal/attempt-starts', internal, 'POST', input);
      if (status !== 200) {
        // Its refusals are the learner's, passed on with their texts; any other answer is its outage.
        const { message } = (body ?? {}) as { message?: string };
        if (status === 404 && message && START_REFUSALS.has(message)) throw notFound(message);
        if (status === 403 && message === CANDIDATE_LINK_MSG.scopeOnly) throw forbidden(message);
        if (status === 404) {
          logger.warn({ status, message }, 'content service answered an unknown refusal of a start');
          throw unavailable(PROGRESS_MSG.contentUnavailable);
        }
        refuse(status, body, QUIZ_MSG.quizNotFound);
      }
      const answer = body as Omit<AttemptStartContent, 'quiz'> & { quiz: unknown };
      return { ...answer, quiz: storedQuiz(input.quizId, answer.quiz) };
    },
    async outlineFor(courseId, person) {
      const query = new URLSearchParams({ userId: person.id, role: person.role });
      const { status, body } = await call(`/internal/courses/${encodeURIComponent(courseId)}/outline?${query}`, internal);
      if (status !== 200) refuse(status, body, CONTENT_MSG.courseNotFound);
      return body as CourseOutline;
    },
    async lessonQuizFor(courseId, lessonId, person) {
      const query = new URLSearchParams({ userId: person.id, role: person.role });
      const path = `/internal/courses/${encodeURIComponent(courseId)}/lessons/${encodeURIComponent(lessonId)}/quiz?${query}`;
      const { status, body } = await call(path, internal);
      if (status !== 200) refuse(status, body, PROGRESS_MSG.lessonNotFound);
      return (body as { quizId: string | null }).quizId;
    },
    async getQuiz(quizId, drawSeed, reader) {
      const params = new URLSearchParams();
      if (drawSeed) params.set('drawSeed', drawSeed);
      if (reader) {
        params.set('userId', reader.id);
        params.set('role', reader.role);
      }
      const query = params.size ? `?${params}` : '';
      const { status, body } = await call(`/internal/quizzes/${encodeURIComponent(quizId)}${query}`, {
        'x-internal-token': internalToken,
      });
      // The content service checks quiz ids by its own rule; any refusal of the id, or of the person's
      // sight of it, means there is no such quiz.
      if (status === 400 || status === 404) throw notFound(QUIZ_MSG.quizNotFound);
      if (status !== 200) refuse(status, body, QUIZ_MSG.quizNotFound);
      return storedQuiz(quizId, body);
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
  };
}
