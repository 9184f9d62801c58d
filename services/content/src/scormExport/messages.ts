/**
 * The export's own refusals and the words the package shows its learner. They live beside the
 * export until its route's messages move into the contracts with the rest of SCORM_MSG.
 */
export const SCORM_EXPORT_MSG = {
  forbidden: 'Выгрузить курс в SCORM может только его автор, соавтор или администратор',
  noLessons: 'В курсе нет опубликованных уроков: выгружать нечего',
  tooBig: 'Файлы курса занимают больше {max} МБ: такой пакет не собирается. Замените большие видео ссылками и повторите',
} as const;

/** What the package's page says; Russian, as every text a person sees. */
export const PACKAGE_TEXT = {
  contents: 'Содержание',
  previous: '← Назад',
  next: 'Далее →',
  lessonOf: 'Урок {n} из {total}',
  check: 'Проверить',
  result: 'Результат: {earned} из {max} баллов ({percent}%). {verdict}',
  passed: 'Тест пройден',
  failed: 'Тест не пройден',
  passingScore: 'Проходной балл: {score}%',
  answerPlaceholder: 'Ваш ответ',
  skippedQuestion: 'Вопрос типа «{type}» в пакете не показывается и не оценивается: ответить на него можно только на портале.',
  missingQuiz: 'Тест этого урока не найден.',
  missingFile: 'Файл «{name}» не найден в хранилище портала.',
  download: 'Скачать',
  openVideo: 'Открыть видео',
  openAudio: 'Открыть запись',
  openImage: 'Открыть изображение',
  scormLesson: 'Этот урок — SCORM-пакет портала: в выгрузку он не входит.',
  noApi: 'Система обучения не найдена: результаты не сохраняются.',
} as const;

/** The sum of the files copied into one package: a course above it is refused (413), not built. */
export const SCORM_EXPORT_MAX_BYTES = 500 * 1024 * 1024;
