import { Types } from 'mongoose';
import {
  NEW_QUIZ_DEFAULTS,
  type ContentBlockInput,
  type DraftCourse,
  type DraftLesson,
  type DraftQuiz,
  type GenerateCourseRequest,
} from '@portal/contracts';
import { op } from '@portal/service-kit';
import type { CommandDeps } from '../commands/deps';
import type { ContentModels } from '../models';
import type { BlockDoc } from '../models/block';
import type { QuizDoc } from '../models/quiz';
import { contentBlockOf, lessonContentOf, questionsOf } from './convert';
import { checkSignal } from './failure';

/** The title of the lesson that holds a module's quiz. */
export const quizLessonTitle = (moduleTitle: string) => `Проверка знаний: ${moduleTitle}`.slice(0, 300);

type NewBlock = Omit<BlockDoc, 'createdAt' | 'updatedAt'>;
/** The course and module a new lesson goes into. */
type LessonPlace = { courseId: Types.ObjectId; moduleId: Types.ObjectId };

/** A draft lesson under a module, holding the given content blocks. */
function draftLessonRecord(
  lesson: { title: string; description: string; blocks: ContentBlockInput[] },
  ids: LessonPlace,
  position: number,
): NewBlock {
  const _id = new Types.ObjectId();
  return {
    _id,
    type: 'LESSON',
    courseId: ids.courseId,
    moduleId: ids.moduleId,
    title: lesson.title,
    description: lesson.description,
    ...lessonContentOf(lesson.blocks, String(_id)),
    position,
    status: 'draft',
    generated: true,
  };
}

export const lessonRecord = (lesson: DraftLesson, ids: LessonPlace, position: number): NewBlock =>
  draftLessonRecord({ ...lesson, blocks: lesson.blocks.map(contentBlockOf) }, ids, position);

export function quizRecord(
  quiz: DraftQuiz,
  courseId: Types.ObjectId,
  createdBy: string,
): Omit<QuizDoc, 'createdAt' | 'updatedAt'> {
  return {
    _id: new Types.ObjectId(),
    title: quiz.title,
    description: quiz.description,
    courseId: String(courseId),
    questions: questionsOf(quiz.questions),
    settings: { ...NEW_QUIZ_DEFAULTS.settings },
    createdBy,
    generated: true,
  };
}

/** A lesson holding a quiz through a quiz content block, as the editor makes them. */
export const quizLessonRecord = (
  quiz: Pick<QuizDoc, '_id' | 'questions'>,
  moduleTitle: string,
  ids: LessonPlace,
  position: number,
): NewBlock =>
  draftLessonRecord(
    {
      title: quizLessonTitle(moduleTitle),
      description: '',
      blocks: [{ type: 'quiz', content: { quizId: String(quiz._id), questionsCount: quiz.questions.length } }],
    },
    ids,
    position,
  );

/** Everything a job wrote, so a cancel or a failure can take it all back. */
export async function removeDraft(models: ContentModels, courseId: Types.ObjectId): Promise<void> {
  await models.courses.deleteOne({ _id: courseId });
  await models.blocks.deleteMany({ courseId });
  await models.quizzes.deleteMany({ courseId: String(courseId) });
}

/**
 * Stage "saving": quizzes, then modules and lessons, then the course document last, so a crash
 * midway never shows a half-made course (its parts are unreachable without it). The cancel signal
 * is checked between writes; on cancel or any failure everything this save wrote is deleted.
 */
export async function saveDraft(
  deps: CommandDeps,
  req: GenerateCourseRequest,
  draft: DraftCourse,
  signal: AbortSignal,
  courseId = new Types.ObjectId(),
): Promise<Types.ObjectId> {
  const { models } = deps;
  try {
    const quizzes = draft.modules.map((m) => (m.quiz ? quizRecord(m.quiz, courseId, deps.actor.id) : null));
    const blocks: NewBlock[] = [];
    draft.modules.forEach((m, position) => {
      const moduleId = new Types.ObjectId();
      blocks.push({
        _id: moduleId,
        type: 'MODULE',
        courseId,
        moduleId: null,
        title: m.title,
        description: '',
        content: m.description,
        position,
        status: 'draft',
        generated: true,
      });
      const ids = { courseId, moduleId };
      m.lessons.forEach((lesson, i) => blocks.push(lessonRecord(lesson, ids, i)));
      const quiz = quizzes[position];
      if (quiz) blocks.push(quizLessonRecord(quiz, m.title, ids, m.lessons.length));
    });

    checkSignal(signal);
    const toInsert = quizzes.filter((q): q is NonNullable<typeof q> => q !== null);
    if (toInsert.length) await models.quizzes.insertMany(toInsert);
    checkSignal(signal);
    await models.blocks.insertMany(blocks);
    checkSignal(signal);
    await models.courses.create({
      _id: courseId,
      title: draft.title,
      description: draft.description,
      level: req.level,
      status: 'draft',
      isPublished: false,
      publishedAt: null,
      createdBy: deps.actor.id,
    });
    // A cancel that arrived during the last write still wins: nothing is kept.
    checkSignal(signal);
    return courseId;
  } catch (err) {
    await removeDraft(models, courseId).catch(() => undefined);
    throw err;
  }
}

/** Quizzes only the given lessons hold (no other lesson anywhere points at them). */
export async function quizzesOnlyHeldBy(
  models: ContentModels,
  quizIds: string[],
  lessonIds: Types.ObjectId[],
): Promise<string[]> {
  if (!quizIds.length) return [];
  const others = await models.blocks
    .find({
      type: 'LESSON',
      _id: op({ $nin: lessonIds }),
      content: new RegExp(quizIds.map((id) => `"quizId":"${id}"`).join('|')),
    })
    .select({ content: 1 })
    .lean<Pick<BlockDoc, 'content'>[]>();
  return quizIds.filter((id) => !others.some((o) => o.content.includes(`"quizId":"${id}"`)));
}
