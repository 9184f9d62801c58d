import {
  REVIEW_MSG,
  attemptReviewedText,
  formatMessage,
  notificationLinks,
  scoreAttempt,
  type ReviewInput,
  type ReviewItem,
  type ReviewPage,
} from '@portal/contracts';
import { badRequest, forbidden, notFound, op, readPage, serialised, type Principal } from '@portal/service-kit';
import { curates } from '../clients/content';
import { isValidObjectId } from 'mongoose';
import type { AttemptDoc, StoredAnswer } from '../models/attempt';
import { detailFor } from './attempts';
import { completeLesson } from './completions';
import { answerText } from './grading';
import { notifyOnce } from './notifications';
import type { ProgressDeps } from './deps';

/** What an answer counts: the person's score once given, else the engine's points (older attempts: right or not). */
const counted = (a: StoredAnswer, points: number): number =>
  a.review ? a.review.score : (a.points ?? (a.isCorrect ? points : 0));

/**
 * «Проверка ответов»: the attempts waiting for a person, oldest first, a page of attempts at a time
 * (each with every answer it waits on): one indexed query and one count per page.
 */
export async function listReviews(
  deps: ProgressDeps,
  actor: Principal,
  query: { page: number; limit: number },
): Promise<ReviewPage> {
  const courses = await deps.content.curatedCourses(actor);
  // A curator sees the answers of the courses they own or co-author; an ADMIN every course's.
  const filter = courses === 'all' ? { awaitingReview: true } : { awaitingReview: true, courseId: op({ $in: [...courses] }) };
  const { rows: attempts, ...counted } = await readPage(
    deps.models.attempts,
    filter,
    query,
    { completedAt: 1, _id: 1 },
    { quizDescription: 0 },
  );
  const data: ReviewItem[] = attempts.flatMap((a) => {
    const questions = new Map(a.questions.map((q) => [q.id, q]));
    return a.answers
      .filter((x) => x.needsReview && !x.review && questions.has(x.questionId))
      .map((x) => {
        const q = questions.get(x.questionId)!;
        return {
          attemptId: String(a._id),
          questionId: q.id,
          type: q.type,
          question: q.question,
          answerText: answerText(q, x.answer),
          fileUrl: q.type === 'file_upload' && typeof x.answer === 'string' ? x.answer : null,
          points: q.points ?? 1,
          userName: a.userName,
          courseTitle: a.courseTitle,
          quizTitle: a.quizTitle,
          completedAt: a.completedAt ? a.completedAt.toISOString() : null,
        };
      });
  });
  return { data, ...counted, page: query.page, limit: query.limit };
}

/**
 * A person grades one waiting answer: a score up to the question's points and a comment. The
 * attempt's score, percentage and verdict are counted again; when nothing waits any more it is
 * final. A second grade of the same answer replaces the first.
 */
export async function gradeAnswer(
  deps: ProgressDeps,
  actor: Principal,
  attemptId: string,
  questionId: string,
  input: Required<ReviewInput>,
) {
  const { models, audit, content, logger } = deps;
  const load = async () => (isValidObjectId(attemptId) ? await models.attempts.findById(attemptId).lean<AttemptDoc>() : null);
  return serialised(models.attempts.db, `attempts:${attemptId}:review`, async () => {
    const attempt = await load();
    const index = attempt?.answers.findIndex((a) => a.questionId === questionId && a.needsReview) ?? -1;
    const question = attempt?.questions.find((q) => q.id === questionId);
    if (!attempt || index < 0 || !question || attempt.status === 'in_progress') throw notFound(REVIEW_MSG.notFound);
    if (!curates(await content.curatedCourses(actor), attempt.courseId)) throw forbidden(REVIEW_MSG.notCourseCurator);
    const points = question.points ?? 1;
    if (input.score > points) throw badRequest(formatMessage(REVIEW_MSG.scoreRange, { max: points }), 'score');

    const answers = attempt.answers.map((a, i) =>
      i === index
        ? { ...a, review: { score: input.score, comment: input.comment, by: actor.id, byName: actor.fullName, at: new Date() } }
        : a,
    );
    const byId = new Map(attempt.questions.map((q) => [q.id, q.points ?? 1]));
    const earned = answers.reduce((sum, a) => sum + counted(a, byId.get(a.questionId) ?? 1), 0);
    const result = scoreAttempt(earned, attempt.maxScore, attempt.passingScore);
    const pendingReviews = answers.filter((a) => a.needsReview && !a.review).length;
    await models.attempts.updateOne(
      { _id: attempt._id },
      {
        $set: {
          answers,
          score: result.score,
          percentage: result.percentage,
          status: result.status,
          pendingReviews,
          awaitingReview: pendingReviews > 0,
        },
      },
    );
    audit.publish({
      code: 'answer.reviewed',
      data: {
        question: question.question,
        learner: attempt.userName,
        quiz: attempt.quizTitle,
        score: input.score,
        points,
        // The attempt's result is told once no answer of it waits for a review.
        ...(pendingReviews ? {} : { total: { score: result.score, maxScore: result.maxScore, percentage: result.percentage } }),
        attemptId,
        questionId,
        userId: attempt.userId,
      },
      entityId: attempt.quizId,
      actor,
    });
    if (pendingReviews === 0 && attempt.awaitingReview) {
      // The attempt is final: the learner hears of it once (a later re-grade changes the score, not the news).
      await notifyOnce(deps, [
        {
          userId: attempt.userId,
          kind: 'attempt_reviewed',
          key: `attempt_reviewed|${attemptId}`,
          ...attemptReviewedText({
            quizTitle: attempt.quizTitle,
            percentage: result.percentage,
            passed: result.status === 'passed',
          }),
          link: notificationLinks.results(),
        },
      ]).catch((err: Error) => logger.warn({ attempt: attemptId, err: err.message }, 'learner not notified of the review'));
    }
    if (result.status === 'passed' && pendingReviews === 0) {
      // Passed once graded: the lesson the quiz stands in is the learner's, completed as a pass at submit would,
      // in the course as the learner reads it (not as the grader, an author, reads its draft).
      const learner: Principal = { id: attempt.userId, fullName: attempt.userName, email: '', role: 'CANDIDATE' };
      try {
        const course = await content.outlineFor(attempt.courseId, learner);
        const pass = { ...attempt, status: result.status, awaitingReview: false };
        await completeLesson(deps, learner, course, attempt.lessonId, { pass });
      } catch (err) {
        logger.warn({ attempt: attemptId, err: (err as Error).message }, 'lesson not completed after a graded pass');
      }
    }
    return detailFor(deps, actor, (await load())!);
  });
}
