import type { CourseProgress, ModuleProgress } from './progress';

/**
 * The words and rules of study a page needs, without zod (progress.ts has the wire schemas): a
 * learner's study page loads these and no schema library.
 */

export const PROGRESS_MSG = {
  // Study mode.
  studyMode: 'Режим обучения',
  back: 'Назад',
  loadingCourse: 'Загрузка курса...',
  loadingQuiz: 'Загрузка квиза...',
  courseNotFound: 'Курс не найден',
  courseLoadFailed: 'Не удалось загрузить курс',
  chooseLesson: 'Выберите урок для изучения',
  lessonEmpty: 'Урок пуст',
  lessonEmptyHint: 'Содержимое урока ещё не добавлено',
  lessonCompleted: 'Урок пройден',
  completeLesson: 'Завершить урок',
  lessonAwaitingReview: 'Ожидает проверки',
  lessonCompletesWithQuiz: 'Урок будет засчитан, когда тест пройден',
  lessonReviewHint: 'Ответ ожидает проверки куратором: урок будет засчитан, когда тест будет пройден',
  completeFailed: 'Не удалось отметить урок пройденным',
  unknownBlockType: 'Неизвестный тип блока',
  imageNotUploaded: 'Изображение не загружено',
  progress: 'Прогресс курса',
  noLessons: 'В курсе пока нет уроков',
  download: 'Скачать',
  // Quiz card and player, and the attempt states.
  startQuiz: 'Начать квиз',
  retryAttempt: 'Повторить попытку',
  viewResults: 'Посмотреть результаты',
  questionsCount: 'Вопросов: {n}',
  passMark: 'Проходной балл: {n}%',
  timeLimit: 'Ограничение времени: {n} мин',
  attemptsLeft: 'Попыток: {used} из {max}',
  latestAttempt: 'Последняя попытка: {percent}%',
  passed: 'Пройден',
  failed: 'Не пройден',
  inProgress: 'В процессе',
  prev: 'Назад',
  next: 'Далее',
  finishQuiz: 'Завершить квиз',
  close: 'Закрыть',
  questionOf: 'Вопрос {n} из {total}',
  noQuestions: 'В квизе пока нет вопросов.',
  timeLeft: 'Осталось времени',
  quizPassed: 'Квиз пройден!',
  quizFailed: 'Квиз не пройден',
  yourResult: 'Ваш результат: {score} из {max} ({percent}%)',
  scoreOf: '{score} из {max} ({percent}%)',
  passRequired: 'Для прохождения требуется {percent}%',
  tryAgain: 'Попробовать снова',
  preview: 'Превью: результат не сохраняется',
  explanationsAfterCourse: 'Разбор ответов будет доступен после прохождения курса',
  notAnswered: 'Нет ответа',
  unsupportedType: 'Этот тип вопроса пока не поддерживается: ответ не засчитывается',
  trueLabel: 'Верно',
  falseLabel: 'Неверно',
  yourAnswer: 'Ваш ответ',
  /** What staff reading someone's attempt see instead of «Ваш ответ». */
  learnerAnswer: 'Ответ учащегося',
  correctAnswer: 'Правильный ответ',
  explanation: 'Пояснение',
  timeUp: 'Время вышло: квиз завершён автоматически',
  // Results.
  resultsTitle: 'Результаты квизов',
  resultsSearch: 'Поиск по имени, курсу или квизу',
  statusAll: 'Все',
  statusPassed: 'Пройденные',
  statusFailed: 'Не пройденные',
  statusPending: 'На проверке',
  totalAttempts: 'Всего попыток',
  passedCount: 'Пройдено',
  failedCount: 'Не пройдено',
  pendingCount: 'На проверке',
  averagePercent: 'Средний результат',
  resultsNotFound: 'Результаты не найдены',
  resultsNotFoundHint: 'Попробуйте изменить параметры поиска или фильтры',
  noResults: 'Пока нет результатов квизов',
  attemptDetails: 'Подробности попытки',
  exportFailed: 'Не удалось выгрузить результаты',
  resultsLoadFailed: 'Не удалось загрузить результаты',
  details: 'Подробнее',
  student: 'Студент',
  quiz: 'Квиз',
  result: 'Результат',
  timeTaken: 'Затраченное время',
  minutes: '{n} мин',
  seconds: '{n} с',
  // Server refusals.
  lessonNotFound: 'Урок не найден',
  quizNotInLesson: 'В этом уроке нет такого квиза',
  attemptNotFound: 'Попытка не найдена',
  quizEmpty: 'В квизе пока нет вопросов',
  attemptsExhausted: 'Попытки закончились: использовано {used} из {max}',
  alreadyPassed: 'Квиз уже пройден: повторная попытка не предусмотрена',
  answerDuplicate: 'Ответ на вопрос указан дважды: {id}',
  answerUnknownQuestion: 'В квизе нет вопроса {id}',
  answersAttemptClosed: 'Попытка уже завершена: ответы больше не сохраняются',
  answersTimeUp: 'Время попытки истекло: ответы больше не сохраняются',
  contentUnavailable: 'Сервис курсов временно недоступен. Повторите попытку позже',
  notOwnResults: 'Можно смотреть только свои результаты',
  lessonNeedsQuiz: 'Урок с тестом засчитывается, когда тест пройден: завершить его кнопкой нельзя',
  lessonNeedsReview: 'Ответ ещё ожидает проверки: урок будет засчитан, когда тест будет пройден',
} as const;

/**
 * long_answer and file_upload answers wait for a person: the attempt is «на проверке»
 * (`pendingReviews` > 0, its score provisional) until a curator or administrator has given each a
 * score and a comment, which the learner then sees with the result.
 */
export const REVIEW_MSG = {
  title: 'Проверка ответов',
  pending: 'На проверке',
  notFound: 'Ответ для проверки не найден',
  scoreRequired: 'Введите оценку',
  scoreRange: 'Оценка должна быть от 0 до {max}',
  commentTooLong: 'Комментарий не длиннее 2000 символов',
  notCourseCurator: 'Проверять ответы этого курса могут только его автор, соавторы и администратор',
} as const;

/**
 * A pass that counts: passed, with nothing left for a person to grade (a provisional pass while an
 * answer is «на проверке» is not one yet).
 */
export const isFinalPass = (a: { status: string; awaitingReview?: boolean | null }): boolean =>
  a.status === 'passed' && !a.awaitingReview;

/**
 * The one rule of lesson completion, which progress, the certificate, assignments and their reports
 * all count with: a lesson without a quiz is complete once the learner marks it («Завершить урок»); a
 * lesson with a quiz once a quiz of it is passed (`isFinalPass`), whatever was marked.
 */
export function completedLessonIdsOf(
  lessons: Iterable<{ id: string; hasQuiz?: boolean }>,
  marked: Iterable<string>,
  passed: Iterable<string>,
): string[] {
  const markedIds = new Set(marked);
  const passedIds = new Set(passed);
  return [...lessons].filter((l) => (l.hasQuiz ? passedIds.has(l.id) : markedIds.has(l.id))).map((l) => l.id);
}

/** Lessons whose quiz a learner has tried without completing them: waiting for a person's grade, or attempted. */
export interface QuizLessonActivity {
  awaitingReview?: Iterable<string>;
  attempted?: Iterable<string>;
}

/**
 * Course progress from the course's structure and the learner's completed lessons (by
 * `completedLessonIdsOf`). Only lessons the course still has count; a module or course is complete
 * when it has lessons and all are done. Of the others, `quiz` names those «ожидает проверки» and those
 * whose quiz was tried.
 */
export function computeCourseProgress(
  // Only ids are read: the whole course and its outline (CourseOutline) both fit.
  course: { id: string; modules: Array<{ id: string; lessons: Array<{ id: string }> }> },
  completedIds: Iterable<string>,
  completedAt: string | null = null,
  quiz: QuizLessonActivity = {},
): CourseProgress {
  const done = new Set(completedIds);
  const modules: ModuleProgress[] = course.modules.map((m) => {
    const completedLessons = m.lessons.filter((l) => done.has(l.id)).length;
    return {
      moduleId: m.id,
      totalLessons: m.lessons.length,
      completedLessons,
      isCompleted: m.lessons.length > 0 && completedLessons === m.lessons.length,
    };
  });
  const lessonIds = course.modules.flatMap((m) => m.lessons.map((l) => l.id));
  const completedLessonIds = lessonIds.filter((id) => done.has(id));
  const totalLessons = lessonIds.length;
  const open = lessonIds.filter((id) => !done.has(id));
  const waiting = new Set(quiz.awaitingReview ?? []);
  const tried = new Set(quiz.attempted ?? []);
  return {
    courseId: course.id,
    totalLessons,
    completedLessons: completedLessonIds.length,
    percentage: Math.round((completedLessonIds.length / Math.max(totalLessons, 1)) * 100),
    completedLessonIds,
    modules,
    isCompleted: totalLessons > 0 && completedLessonIds.length === totalLessons,
    completedAt,
    awaitingReviewLessonIds: open.filter((id) => waiting.has(id)),
    attemptedLessonIds: open.filter((id) => tried.has(id) && !waiting.has(id)),
  };
}
