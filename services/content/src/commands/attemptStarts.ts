import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import {
  CANDIDATE_LINK_MSG,
  CONTENT_MSG,
  PROGRESS_MSG,
  QUIZ_MSG,
  contentBlocksOf,
  isObjectIdHex,
  type InternalAttemptStart,
  type InternalQuiz,
  type LessonOutline,
  type Quiz,
  type internalAttemptStartSchema,
} from '@portal/contracts';
import { coalesce, forbidden, notFound, type Principal } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import type { QuizDoc } from '../models/quiz';
import { canSeeCourse } from '../policies/content';
import { presentBlock, presentLessonOutline } from '../presenters/block';
import { presentQuiz } from '../presenters/quiz';
import { pinVersion } from '../versions/commands';
import {
  learnerSeesVersionLesson,
  lessonOutlineRecord,
  publishedViews,
  readsPublished,
  type PublishedView,
} from '../versions/published';
import { drawFromVersionBank, quizFromBody, versionedQuiz } from '../versions/quizzes';
import { readSnapshots, type QuizBody } from '../versions/state';
import { drawFromBank } from './bank';
import { markLearnerActivity } from './courses';
import { lessonCacheOf, type LessonCache } from './lessonCache';
import { withDrawn } from './quizzes';

type StartInput = z.output<typeof internalAttemptStartSchema>;

/**
 * What a start reads of the course, every time: whether the learner may see it and which version
 * they read (status, authors, the published pointer), the key of the kept lessons (updatedAt), the
 * title, and whether a learner's beginning was already noted.
 */
const START_COURSE_FIELDS = {
  title: 1,
  status: 1,
  updatedAt: 1,
  createdBy: 1,
  coAuthors: 1,
  published: 1,
  learnerActivity: 1,
} as const;
type StartCourse = Pick<
  CourseDoc,
  '_id' | 'title' | 'status' | 'updatedAt' | 'createdBy' | 'coAuthors' | 'published' | 'learnerActivity'
>;

/** The quiz a start is taken on, where it stands, and the version it was read from. */
interface Found {
  quiz: Quiz;
  lesson: LessonOutline;
  lessonTitle: string;
  /** The published version the quiz is read from; null for the live quiz. */
  view: PublishedView | null;
}

/** The start's answer, and the course's first version to take once it is sent (docs/decisions/093). */
export interface AttemptStartAnswer {
  answer: InternalAttemptStart;
  firstVersion: (() => Promise<void>) | null;
}

/**
 * POST /internal/attempt-starts: everything an attempt's start needs from this service, checked as
 * the learner's own reads check it (GET /courses/{id}/outline, GET /blocks/{id}, the internal quiz),
 * for a learner given as data. On the warm path it reads the course document and nothing else for a
 * course with a published version (the version's tree and quizzes are kept: a version never
 * changes), and the course and the live quiz for one without (the lesson from the lesson cache,
 * keyed by the course's updatedAt). A quiz that draws from the bank adds its draw's reads.
 */
export class AttemptStarts {
  /** Quizzes as a published version holds them, by course, version and quiz: never stale. */
  private readonly versionQuizzes = new LRUCache<string, Quiz>({
    max: 2_000,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (q) => JSON.stringify(q.questions).length + 1,
  });
  private readonly reading = new Map<string, Promise<Quiz | null>>();
  private readonly lessons: LessonCache;

  constructor(private readonly models: ContentModels) {
    this.lessons = lessonCacheOf(models);
  }

  async start(input: StartInput): Promise<AttemptStartAnswer> {
    const { quizId, courseId, lessonId, drawSeed } = input;
    const learner: Principal = { id: input.learner.id, role: input.learner.role, fullName: '', email: '' };
    // A link session's token reaches its course's outline and its lesson only: so does this.
    const scope = input.learner.linkScope;
    if (scope && (scope.quizId !== quizId || scope.courseId !== courseId || scope.lessonId !== lessonId)) {
      throw forbidden(CANDIDATE_LINK_MSG.scopeOnly);
    }
    // An id we never issue names no quiz (the internal quiz read refuses it so).
    if (!isObjectIdHex(quizId)) throw notFound(QUIZ_MSG.quizNotFound);
    const course = await this.models.courses.findById(courseId).select(START_COURSE_FIELDS).lean<StartCourse>();
    // Refusals in the order the learner's separate reads gave them: the quiz, the course, the lesson.
    if (!course || !canSeeCourse(learner, course)) {
      throw notFound((await this.quizExists(quizId)) ? CONTENT_MSG.courseNotFound : QUIZ_MSG.quizNotFound);
    }
    const found = readsPublished(learner, course)
      ? await this.inVersion(course, quizId, lessonId)
      : await this.inDraft(learner, course, quizId, lessonId);

    const { quiz, view } = found;
    if (view) await pinVersion(this.models, course._id, view.version.number, view);
    const drawn = view
      ? await drawFromVersionBank(this.models, view, quiz.draws, drawSeed)
      : await drawFromBank(this.models, quiz.courseId ?? null, quiz.draws, drawSeed);
    const whole: InternalQuiz = {
      ...quiz,
      questions: withDrawn(quiz.questions, drawn),
      lessonId,
      lessonTitle: found.lessonTitle,
      courseId: String(course._id),
      courseTitle: course.title,
      courseVersion: view ? view.version.number : null,
    };
    // The learner's first record in the course: noted only for a start that can be taken.
    const firstVersion = input.noteActivity && whole.questions.length ? await this.noteActivity(course) : null;
    return {
      answer: { quiz: whole, course: { id: String(course._id), title: course.title }, lesson: found.lesson },
      firstVersion,
    };
  }

  /** A learner of a course with a published version takes the quiz as the version holds it. */
  private async inVersion(course: StartCourse, quizId: string, lessonId: string): Promise<Found> {
    const view = await publishedViews(this.models).current(course);
    const versioned = view ? await this.versionQuiz(course, view, quizId) : null;
    // A quiz the version does not hold is read live, as the internal quiz read does.
    const quiz = versioned ?? (await this.liveQuiz(quizId));
    if (!quiz) throw notFound(QUIZ_MSG.quizNotFound);
    const at = view?.lessons.get(lessonId);
    if (!view || !at || !learnerSeesVersionLesson(view, lessonId)) throw notFound(PROGRESS_MSG.lessonNotFound);
    if (!at.entry.quizIds.includes(quizId)) throw notFound(PROGRESS_MSG.quizNotInLesson);
    return {
      quiz,
      lesson: presentLessonOutline(lessonOutlineRecord(course._id, view, at.module, at.entry, at.position)),
      lessonTitle: at.entry.title,
      view: versioned ? view : null,
    };
  }

  /** A course without a published version (or its authors): the live quiz and the lesson as it stands. */
  private async inDraft(learner: Principal, course: StartCourse, quizId: string, lessonId: string): Promise<Found> {
    const [quiz, lesson] = await Promise.all([this.liveQuiz(quizId), this.lessons.readableIn(learner, course, lessonId)]);
    if (!quiz) throw notFound(QUIZ_MSG.quizNotFound);
    // The outline lists a lesson only inside a module of its course.
    if (!lesson || lesson.type !== 'LESSON' || !lesson.moduleId) throw notFound(PROGRESS_MSG.lessonNotFound);
    if (!holdsQuiz(lesson, quizId)) throw notFound(PROGRESS_MSG.quizNotInLesson);
    return { quiz, lesson: presentLessonOutline(lesson), lessonTitle: lesson.title, view: null };
  }

  private async versionQuiz(course: StartCourse, view: PublishedView, quizId: string): Promise<Quiz | null> {
    const snap = view.state.quizzes.get(quizId);
    if (!snap) return null;
    const key = `${String(course._id)}:${view.version.number}:${quizId}`;
    const hit = this.versionQuizzes.get(key);
    if (hit) return hit;
    return coalesce(this.reading, key, async () => {
      const body = (await readSnapshots<QuizBody>(this.models, { courseId: course._id }, [snap])).get(snap);
      if (!body) return null;
      const quiz = presentQuiz(quizFromBody(quizId, body));
      this.versionQuizzes.set(key, quiz);
      return quiz;
    });
  }

  private async liveQuiz(quizId: string): Promise<Quiz | null> {
    const doc = await this.models.quizzes.findById(quizId).lean<QuizDoc>();
    return doc ? presentQuiz(doc) : null;
  }

  /** Whether the internal quiz read would find the quiz: live, or kept by its course's published version. */
  private async quizExists(quizId: string): Promise<boolean> {
    if (await this.models.quizzes.exists({ _id: quizId })) return true;
    return !!(await versionedQuiz(this.models, quizId, null))?.quiz;
  }

  /**
   * As POST /internal/courses/{id}/learner-activity does: nothing to read or write once the course
   * knows of learners and has its first version, which is the case for every start but the first ones.
   */
  private async noteActivity(course: StartCourse): Promise<(() => Promise<void>) | null> {
    if (course.learnerActivity && (course.published || course.status !== 'published')) return null;
    return (await markLearnerActivity(this.models, String(course._id)))?.firstVersion ?? null;
  }
}

const holdsQuiz = (lesson: BlockDoc, quizId: string): boolean =>
  contentBlocksOf(presentBlock(lesson)).some((b) => b.type === 'quiz' && b.content?.quizId === quizId);
