import { Types } from 'mongoose';
import type { Question, QuizDraw } from '@portal/contracts';
import { seededDraw } from '@portal/quiz-engine';
import { MAX_BANK_QUESTIONS } from '@portal/contracts';
import type { ContentModels } from '../models';
import type { CourseDoc } from '../models/course';
import type { QuizDoc } from '../models/quiz';
import { presentQuestion } from '../presenters/quiz';
import { publishedViews, type PublishedView } from './published';
import { readSnapshots, type BankIndexBody, type BankQuestionBody, type QuizBody } from './state';

/** A quiz as a version holds it, in the shape of the live record (the presenters take either). */
export const quizFromBody = (id: string, body: QuizBody): QuizDoc => ({
  _id: new Types.ObjectId(id),
  title: body.title,
  description: body.description,
  courseId: body.courseId,
  questions: body.questions,
  settings: body.settings,
  draws: body.draws ?? [],
  createdBy: body.createdBy,
  ...(body.generated ? { generated: true } : {}),
  shuffleSeed: body.shuffleSeed,
  version: body.version,
  createdAt: new Date(body.createdAt),
  updatedAt: new Date(body.updatedAt),
});

export interface VersionedQuiz {
  course: CourseDoc;
  /** null: the course has no published version (the live quiz is the one). */
  view: PublishedView | null;
  /** null: the version does not hold this quiz (it is the draft's only). */
  quiz: QuizDoc | null;
}

/**
 * The quiz as the published version of its course holds it, when that course has one; null for a
 * quiz of a course without versions. A quiz deleted from the draft is found through its snapshot.
 */
export async function versionedQuiz(models: ContentModels, quizId: string, live: QuizDoc | null): Promise<VersionedQuiz | null> {
  // The course is read once here; callers reuse it.
  let courseId = live?.courseId ?? null;
  if (!live) {
    const kept = await models.snapshots
      .findOne({ sourceId: quizId, kind: 'quiz' }, { courseId: 1 })
      .lean<{ courseId: Types.ObjectId }>();
    courseId = kept ? String(kept.courseId) : null;
  }
  if (!courseId || !Types.ObjectId.isValid(courseId)) return null;
  const course = await models.courses.findById(courseId).lean<CourseDoc>();
  if (!course) return null;
  const view = await publishedViews(models).current(course);
  if (!view) return { course, view: null, quiz: null };
  const snap = view.state.quizzes.get(quizId);
  if (!snap) return { course, view, quiz: null };
  const body = (await readSnapshots<QuizBody>(models, { courseId: course._id }, [snap])).get(snap);
  return { course, view, quiz: body ? quizFromBody(quizId, body) : null };
}

/** An attempt's draw from the bank as the version holds it (the same rule as the live bank's draw). */
export async function drawFromVersionBank(
  models: ContentModels,
  view: PublishedView,
  draws: QuizDraw[],
  seed: string,
): Promise<Question[]> {
  if (!draws.length || !view.version.bank) return [];
  const index = (await readSnapshots<BankIndexBody>(models, { courseId: view.version.courseId }, [view.version.bank])).get(
    view.version.bank,
  );
  if (!index) return [];
  const chosen: string[] = [];
  for (const draw of draws) {
    const pool = index.questions
      .filter((q) => q.tags.includes(draw.tag) && !chosen.includes(q.id))
      .map((q) => q.id)
      .sort()
      .slice(0, MAX_BANK_QUESTIONS);
    chosen.push(...seededDraw(seed, draw.tag, pool, draw.count));
  }
  const snaps = new Map(index.questions.map((q) => [q.id, q.snap]));
  const bodies = await readSnapshots<BankQuestionBody>(
    models,
    { courseId: view.version.courseId, kind: 'bankQuestion' },
    chosen.map((id) => snaps.get(id)!),
  );
  return chosen.flatMap((id) => {
    const body = bodies.get(snaps.get(id)!);
    return body ? [{ ...presentQuestion(body.question), id: `bank-${id}` }] : [];
  });
}
