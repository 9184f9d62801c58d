import { CONTENT_MSG, type Quiz, type QuizCreateInput } from '@portal/contracts';
import type { EditorBackend } from '../backend/backend';
import { courseFieldsOf } from '../model/structure';
import type { Autosaver } from './autosave';
import { courseWrite, type CourseDraft } from './savers';

/** The author's answer to a 412: the other version, theirs overwritten by mine, or mine kept as a copy. */
export type ConflictChoice = 'theirs' | 'overwrite' | 'copy';

/** Quiz and course titles are at most 200 characters (quizInputSchema, courseCreateSchema). */
const TITLE_MAX = 200;

/** '<title> (копия)', shortened so that it still fits `max`. */
export const copyTitle = (title: string, max = TITLE_MAX): string =>
  `${title.trim().slice(0, max - CONTENT_MSG.copySuffix.length)}${CONTENT_MSG.copySuffix}`;

/**
 * What the quiz form shows after the choice: `saved` when the author's quiz is stored over the other
 * version (the form is done), else `theirs` (the stored quiz, which the form now edits) and, for
 * «Сохранить мою как копию», the new quiz holding the author's version.
 */
export type QuizConflictOutcome = { saved: Quiz } | { theirs: Quiz; copy?: Quiz };

/**
 * Settles a quiz save refused with 412. The stored quiz is read first: its version is the one an
 * overwrite is based on, and the one the form's next save is based on after «Загрузить их версию».
 */
export async function settleQuizConflict(
  backend: Pick<EditorBackend, 'getQuiz' | 'saveQuiz'>,
  quizId: string,
  mine: QuizCreateInput,
  choice: ConflictChoice,
): Promise<QuizConflictOutcome> {
  const theirs = await backend.getQuiz(quizId);
  if (choice === 'overwrite') return { saved: await backend.saveQuiz(quizId, mine, theirs.version) };
  if (choice === 'copy') return { theirs, copy: await backend.saveQuiz(null, { ...mine, title: copyTitle(mine.title) }) };
  return { theirs };
}

/**
 * What the course form shows after the choice: nothing changes on screen after an overwrite (the
 * author's fields are stored); otherwise the stored fields, and for a copy the new course.
 */
export interface CourseConflictOutcome {
  theirs?: CourseDraft;
  copy?: { id: string; title: string };
}

/**
 * Settles a course autosave refused with 412. Reading the stored course takes its version, so
 * «Перезаписать» saves the author's fields (still the saver's latest) based on it.
 * «Сохранить мою как копию» uses the course copy route, which copies the stored course with its
 * modules and lessons; the copy then takes the author's fields, and stays a draft as every copy
 * does. Otherwise, and after a copy, the saver takes the stored fields as saved: nothing is pending.
 */
export async function settleCourseConflict(
  backend: Pick<EditorBackend, 'getCourse' | 'copyCourse' | 'updateCourse'>,
  saver: Autosaver<CourseDraft>,
  choice: ConflictChoice,
): Promise<CourseConflictOutcome> {
  const mine = saver.getLatest();
  const stored = await backend.getCourse(mine.id);
  if (choice === 'overwrite') {
    await saver.flush();
    return {};
  }
  let copy: CourseConflictOutcome['copy'];
  if (choice === 'copy') {
    const made = await backend.copyCourse(mine.id);
    const { description, price, duration, level } = courseWrite(mine);
    const title = copyTitle(mine.title);
    await backend.updateCourse(made.id, { title, description, price, duration, level });
    copy = { id: made.id, title };
  }
  const theirs = courseFieldsOf(stored);
  saver.markSaved(theirs);
  saver.change(theirs);
  return { theirs, copy };
}
