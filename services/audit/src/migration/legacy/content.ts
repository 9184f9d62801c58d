import type { CourseStatus, GenerationSource, ScormVersion } from '@portal/contracts';
import { legacy } from './define';

/** «1.20» as the bytes whose megabytes the details told (read back to the same two decimals). */
const bytesOf = (megabytes: string) => Math.round(Number(megabytes) * 1024 * 1024);
/** «ИИ» or «по шаблону» (a generated draft), «ИИ» or «шаблон» (a new version asked for). */
const sourceOf = (words: string): GenerationSource => (words === 'ИИ' ? 'ai' : 'template');
/** «отпуск, стаж» as the tags a bank question was added with. */
const tagsOf = (told: string) => (told ? told.split(', ') : []);
/** «Курс А», «Курс Б» (with the outer marks) as the titles of the courses lessons were imported from. */
const titlesOf = (told: string) => told.slice(1, -1).split('», «');

type Requested = 'module.newVersionRequested' | 'lesson.newVersionRequested' | 'quiz.newVersionRequested';

/** A new version of a module, lesson or quiz asked of the course builder; `noun` in the genitive. */
const requested = (code: Requested, noun: string, example: { title: string; by: 'ИИ' | 'шаблон' }) =>
  legacy(
    code,
    new RegExp(`^Запрошена новая версия ${noun} «(.*)» \\((ИИ|шаблон)\\)$`),
    (m) => ({ title: m[1], source: sourceOf(m[2]) }),
    {
      details: `Запрошена новая версия ${noun} «${example.title}» (${example.by})`,
      phrase: `запросил новую версию ${noun} «${example.title}»`,
    },
  );

export const CONTENT_LEGACY = [
  /* ------------------------------------------------------------ courses */
  legacy('course.created', /^Создан курс «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Создан курс «Основы HR»',
    phrase: 'создал курс «Основы HR»',
  }),
  legacy(
    'course.generated',
    /^Создан черновик курса «(.*)» (ИИ|по шаблону) по теме «(.*)» \(модулей: (\d+)\)$/,
    (m) => ({ title: m[1], source: sourceOf(m[2]), topic: m[3], modules: Number(m[4]) }),
    {
      details: 'Создан черновик курса «Основы HR» по шаблону по теме «Адаптация» (модулей: 3)',
      phrase: 'создал черновик курса «Основы HR»',
    },
  ),
  legacy('course.copied', /^Создана копия курса «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Создана копия курса «Основы HR»',
    phrase: 'создал копию курса «Основы HR»',
  }),
  legacy(
    'course.updated',
    /^Изменён курс «(.*)»(?:, статус (\S+) → (\S+))?$/,
    (m) => ({
      title: m[1],
      changes: m[2] ? { status: { from: m[2] as CourseStatus, to: m[3] as CourseStatus } } : {},
    }),
    {
      details: 'Изменён курс «Основы HR», статус draft → published',
      phrase: 'изменил курс «Основы HR»: статус Черновик → Опубликован',
    },
  ),
  legacy(
    'course.archived',
    /^Курс «(.*)» перенесён в архив: по нему есть попытки или прогресс учащихся$/,
    (m) => ({ title: m[1] }),
    {
      details: 'Курс «Основы HR» перенесён в архив: по нему есть попытки или прогресс учащихся',
      phrase: 'перенёс в архив курс «Основы HR»',
    },
  ),
  legacy('course.deleted', /^Удалён курс «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Удалён курс «Основы HR»',
    phrase: 'удалил курс «Основы HR»',
  }),
  legacy('course.favorited', /^Курс «(.*)» добавлен в избранное$/, (m) => ({ title: m[1] }), {
    details: 'Курс «Основы HR» добавлен в избранное',
    phrase: 'добавил в избранное курс «Основы HR»',
  }),
  legacy('course.unfavorited', /^Курс «(.*)» удалён из избранного$/, (m) => ({ title: m[1] }), {
    details: 'Курс «Основы HR» удалён из избранного',
    phrase: 'убрал из избранного курс «Основы HR»',
  }),
  legacy('course.markedStarted', /^Начат курс «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Начат курс «Основы HR»',
    phrase: 'начал курс «Основы HR»',
  }),
  legacy('course.unmarkedStarted', /^Курс «(.*)» больше не отмечен начатым$/, (m) => ({ title: m[1] }), {
    details: 'Курс «Основы HR» больше не отмечен начатым',
    phrase: 'снял отметку о начале курса «Основы HR»',
  }),
  legacy('course.coAuthorAdded', /^Добавлен соавтор (\S+) курса «(.*)»$/, (m) => ({ email: m[1], title: m[2] }), {
    details: 'Добавлен соавтор olga@example.test курса «Основы HR»',
    phrase: 'добавил соавтора olga@example.test курса «Основы HR»',
  }),
  legacy('course.coAuthorRemoved', /^Удалён соавтор курса «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Удалён соавтор курса «Основы HR»',
    phrase: 'убрал соавтора курса «Основы HR»',
  }),

  /* ------------------------------------------------------------ course versions */
  legacy(
    'course.versionPublished',
    /^Опубликована версия (\d+) курса «(.*?)»: (.*)$/s,
    (m) => ({ number: Number(m[1]), title: m[2], summary: m[3] }),
    {
      details: 'Опубликована версия 3 курса «Основы HR»: Обновлён раздел о СИЗ',
      phrase: 'опубликовал версию 3 курса «Основы HR»',
    },
  ),
  legacy('course.draftDiscarded', /^Отменены изменения черновика курса «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Отменены изменения черновика курса «Основы HR»',
    phrase: 'отменил изменения черновика курса «Основы HR»',
  }),
  legacy(
    'course.versionRestored',
    /^Версия (\d+) курса «(.*)» восстановлена как черновик$/,
    (m) => ({ number: Number(m[1]), title: m[2] }),
    {
      details: 'Версия 1 курса «Основы HR» восстановлена как черновик',
      phrase: 'восстановил версию 1 курса «Основы HR» как черновик',
    },
  ),
  legacy(
    'course.versionsPruned',
    /^Удалены старые версии курса «(.*)»: (\d+(?:, \d+)*)$/,
    (m) => ({ title: m[1], removed: m[2].split(', ').map(Number) }),
    {
      details: 'Удалены старые версии курса «Основы HR»: 1, 2',
      phrase: 'очистил старые версии курса «Основы HR»',
    },
  ),
  legacy('course.versionsPruned', /^Очистка версий курса «(.*)»: удалять нечего$/, (m) => ({ title: m[1], removed: [] }), {
    details: 'Очистка версий курса «Основы HR»: удалять нечего',
    phrase: 'очистил старые версии курса «Основы HR»',
  }),

  /* ------------------------------------------------------------ SCORM */
  legacy(
    'scormPackage.uploaded',
    /^Загружен SCORM-пакет «(.*)» \(SCORM (\S+), учебных объектов: (\d+), ([\d.]+) МБ\) в курс «(.*)»$/,
    (m) => ({ title: m[1], version: m[2] as ScormVersion, scos: Number(m[3]), bytes: bytesOf(m[4]), course: m[5] }),
    {
      details: 'Загружен SCORM-пакет «Правила гольфа» (SCORM 2004, учебных объектов: 1, 0.21 МБ) в курс «Основы HR»',
      phrase: 'загрузил SCORM-пакет «Правила гольфа» в курс «Основы HR»',
    },
  ),
  legacy('course.scormExported', /^Выгрузка курса «(.*)» в SCORM 1\.2$/, (m) => ({ title: m[1] }), {
    details: 'Выгрузка курса «Основы HR» в SCORM 1.2',
    phrase: 'выгрузил курс «Основы HR» как пакет SCORM 1.2',
  }),

  /* ------------------------------------------------------------ modules and lessons */
  legacy('module.created', /^Создан модуль «(.*)» в курсе «(.*)»$/, (m) => ({ title: m[1], course: m[2] }), {
    details: 'Создан модуль «модуль_1» в курсе «Основы HR»',
    phrase: 'создал модуль «модуль_1»',
  }),
  legacy('module.updated', /^Изменён модуль «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Изменён модуль «Введение»',
    phrase: 'изменил модуль «Введение»',
  }),
  legacy('module.deleted', /^Удалён модуль «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Удалён модуль «Введение»',
    phrase: 'удалил модуль «Введение»',
  }),
  legacy(
    'blocks.reordered',
    /^Изменён порядок модулей и уроков курса «(.*)» \((\d+)\)$/,
    (m) => ({ course: m[1], count: Number(m[2]) }),
    {
      details: 'Изменён порядок модулей и уроков курса «Основы HR» (12)',
      phrase: 'изменил порядок модулей и уроков курса «Основы HR»',
    },
  ),
  legacy('lesson.created', /^Создан урок «(.*)» в курсе «(.*)»$/, (m) => ({ title: m[1], course: m[2] }), {
    details: 'Создан урок «урок_1» в курсе «Основы HR»',
    phrase: 'создал урок «урок_1»',
  }),
  legacy('lesson.copied', /^Создана копия урока «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Создана копия урока «Знакомство»',
    phrase: 'создал копию урока «Знакомство»',
  }),
  legacy(
    'lessons.imported',
    /^Импортировано уроков: (\d+) в модуль «(.*?)» курса «(.*?)» из («.*»)$/,
    (m) => ({ count: Number(m[1]), module: m[2], course: m[3], from: titlesOf(m[4]) }),
    {
      details: 'Импортировано уроков: 2 в модуль «Введение» курса «Основы HR» из «Старый курс»',
      phrase: 'импортировал уроки в модуль «Введение» курса «Основы HR»',
    },
  ),
  legacy('lesson.updated', /^Изменён урок «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Изменён урок «Знакомство»',
    phrase: 'изменил урок «Знакомство»',
  }),
  legacy('lesson.deleted', /^Удалён урок «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Удалён урок «Знакомство»',
    phrase: 'удалил урок «Знакомство»',
  }),
  legacy(
    'file.uploaded',
    /^Загружен файл( с ответом на вопрос квиза)? «(.*)» \(([\d.]+) МБ\)$/,
    (m) => ({ name: m[2], bytes: bytesOf(m[3]), ...(m[1] ? { answer: true } : {}) }),
    { details: 'Загружен файл «план.pdf» (1.20 МБ)', phrase: 'загрузил файл «план.pdf»' },
  ),

  /* ------------------------------------------------------------ quizzes and the question bank */
  legacy('quiz.created', /^Создан квиз «(.*)» \(вопросов: (\d+)\)$/, (m) => ({ title: m[1], questions: Number(m[2]) }), {
    details: 'Создан квиз «Итоговый тест» (вопросов: 5)',
    phrase: 'создал квиз «Итоговый тест»',
  }),
  legacy('quiz.updated', /^Изменён квиз «(.*)» \(вопросов: (\d+)\)$/, (m) => ({ title: m[1], questions: Number(m[2]) }), {
    details: 'Изменён квиз «Итоговый тест» (вопросов: 5)',
    phrase: 'изменил квиз «Итоговый тест»',
  }),
  legacy('quiz.deleted', /^Удалён квиз «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Удалён квиз «Итоговый тест»',
    phrase: 'удалил квиз «Итоговый тест»',
  }),
  legacy(
    'bankQuestion.created',
    /^Добавлен вопрос в банк курса «(.*)» \(метки: (.*)\)$/,
    (m) => ({ course: m[1], tags: tagsOf(m[2]) }),
    {
      details: 'Добавлен вопрос в банк курса «Основы HR» (метки: отпуск)',
      phrase: 'добавил вопрос в банк курса «Основы HR»',
    },
  ),
  legacy('bankQuestion.updated', /^Изменён вопрос банка курса «(.*)»$/, (m) => ({ course: m[1] }), {
    details: 'Изменён вопрос банка курса «Основы HR»',
    phrase: 'изменил вопрос банка курса «Основы HR»',
  }),
  legacy('bankQuestion.deleted', /^Удалён вопрос банка курса «(.*)»$/, (m) => ({ course: m[1] }), {
    details: 'Удалён вопрос банка курса «Основы HR»',
    phrase: 'удалил вопрос банка курса «Основы HR»',
  }),

  /* ------------------------------------------------------------ the course builder */
  requested('module.newVersionRequested', 'модуля', { title: 'Введение', by: 'шаблон' }),
  requested('lesson.newVersionRequested', 'урока', { title: 'Знакомство', by: 'ИИ' }),
  requested('quiz.newVersionRequested', 'квиза', { title: 'Итоговый тест', by: 'ИИ' }),
  legacy(
    'module.newVersionAccepted',
    /^Принята новая версия модуля «(.*)» \(уроков: (\d+)\)$/,
    (m) => ({ title: m[1], lessons: Number(m[2]) }),
    {
      details: 'Принята новая версия модуля «Введение» (уроков: 3)',
      phrase: 'принял новую версию модуля «Введение»',
    },
  ),
  legacy('lesson.newVersionAccepted', /^Принята новая версия урока «(.*)»$/, (m) => ({ title: m[1] }), {
    details: 'Принята новая версия урока «Знакомство»',
    phrase: 'принял новую версию урока «Знакомство»',
  }),
  legacy(
    'quiz.newVersionAccepted',
    /^Принята новая версия квиза «(.*)» \(вопросов: (\d+)\)$/,
    (m) => ({ title: m[1], questions: Number(m[2]) }),
    {
      details: 'Принята новая версия квиза «Итоговый тест» (вопросов: 5)',
      phrase: 'принял новую версию квиза «Итоговый тест»',
    },
  ),
];
