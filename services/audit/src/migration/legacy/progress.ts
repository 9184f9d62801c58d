import { AUDIENCE_LABELS, ROLE_LABELS, ROLES, type AuditDataOf, type Role } from '@portal/contracts';
import { legacy } from './define';

type Audience = AuditDataOf<'assignment.created'>['audience'];

const roleOf = (label: string): Role => ROLES.find((r) => ROLE_LABELS[r] === label) ?? (label as Role);

/** «Подразделение «Склад»», «Роль «Клиент»», «Выбранные сотрудники: 3», «Все обучающиеся», read back. */
function audienceOf(told: string): Audience {
  if (told === AUDIENCE_LABELS.all) return { kind: 'all' };
  const users = new RegExp(`^${AUDIENCE_LABELS.users}: (\\d+)$`).exec(told);
  if (users) return { kind: 'users', count: Number(users[1]) };
  const role = new RegExp(`^${AUDIENCE_LABELS.role} «(.*)»$`).exec(told);
  if (role) return { kind: 'role', role: roleOf(role[1]) };
  // A department, or a text of no known form: that one does not read back the same, so the record stays as it was.
  const department = new RegExp(`^${AUDIENCE_LABELS.department} «(.*)»$`).exec(told);
  return { kind: 'department', department: department ? department[1] : told };
}

/** «3 из 3 (100%)»: points earned, of those possible, and the share. */
const SCORE = String.raw`(\S+) из (\S+) \((\S+)%\)`;
const scoreOf = (m: RegExpExecArray, at: number) => ({
  score: Number(m[at]),
  maxScore: Number(m[at + 1]),
  percentage: Number(m[at + 2]),
});

/** A submit's result: «Квиз «…» пройден: 3 из 3 (100%), попытка 1[, время вышло]». */
const submitted = (m: RegExpExecArray) => ({
  quiz: m[1],
  ...scoreOf(m, 2),
  attemptNumber: Number(m[5]),
  ...(m[6] ? { late: true } : {}),
});

export const PROGRESS_LEGACY = [
  /* --------------------------------------------------------------- attempts, reviews, results */
  legacy(
    'attempt.started',
    /^Начата попытка (\d+) квиза «(.*)» \(курс «(.*)»\)$/,
    (m) => ({ attemptNumber: Number(m[1]), quiz: m[2], course: m[3] }),
    {
      details: 'Начата попытка 1 квиза «Итоговый тест» (курс «Основы HR»)',
      phrase: 'начал попытку квиза «Итоговый тест»',
    },
  ),
  legacy('attempt.passed', new RegExp(`^Квиз «(.*)» пройден: ${SCORE}, попытка (\\d+)(, время вышло)?$`), submitted, {
    details: 'Квиз «Итоговый тест» пройден: 3 из 3 (100%), попытка 1',
    phrase: 'прошёл квиз «Итоговый тест»',
  }),
  legacy('attempt.failed', new RegExp(`^Квиз «(.*)» не пройден: ${SCORE}, попытка (\\d+)(, время вышло)?$`), submitted, {
    details: 'Квиз «Итоговый тест» не пройден: 1 из 3 (33%), попытка 2, время вышло',
    phrase: 'не прошёл квиз «Итоговый тест»',
  }),
  legacy(
    'attempt.expired',
    new RegExp(`^Время попытки (\\d+) квиза «(.*)» \\((.*)\\) истекло: ${SCORE}$`),
    (m) => ({ attemptNumber: Number(m[1]), quiz: m[2], learner: m[3], ...scoreOf(m, 4) }),
    {
      details: 'Время попытки 1 квиза «Итоговый тест» (Иван Петров) истекло: 0 из 3 (0%)',
      phrase: 'завершил по истечении времени попытку квиза «Итоговый тест» (Иван Петров)',
    },
  ),
  legacy(
    'answer.reviewed',
    new RegExp(`^Проверен ответ на вопрос «(.*)» \\((.*), квиз «(.*)»\\): (\\S+) из (\\S+)(?:; итог ${SCORE})?$`),
    (m) => ({
      question: m[1],
      learner: m[2],
      quiz: m[3],
      score: Number(m[4]),
      points: Number(m[5]),
      ...(m[6] ? { total: scoreOf(m, 6) } : {}),
    }),
    {
      details: 'Проверен ответ на вопрос «Опишите порядок действий» (Иван Петров, квиз «Итоговый тест»): 2 из 3',
      phrase: 'проверил ответ в квизе «Итоговый тест» (Иван Петров)',
    },
  ),
  legacy(
    'results.viewed',
    /^Просмотр результатов квизов: страница (\d+), записей (\d+)$/,
    (m) => ({ page: Number(m[1]), rows: Number(m[2]) }),
    { details: 'Просмотр результатов квизов: страница 1, записей 12', phrase: 'просмотрел результаты квизов' },
  ),
  legacy('results.exported', /^Выгрузка результатов квизов в (\S+)$/, (m) => ({ file: m[1] }), {
    details: 'Выгрузка результатов квизов в quiz_results.csv',
    phrase: 'выгрузил результаты квизов',
  }),
  legacy('scormResults.exported', /^Выгрузка результатов SCORM-уроков в (\S+)$/, (m) => ({ file: m[1] }), {
    details: 'Выгрузка результатов SCORM-уроков в scorm_attempts.xlsx',
    phrase: 'выгрузил результаты SCORM-уроков',
  }),

  /* --------------------------------------------------------------- completions and certificates */
  legacy('lesson.completed', /^Урок «(.*)» курса «(.*)» пройден$/, (m) => ({ lesson: m[1], course: m[2] }), {
    details: 'Урок «Знакомство» курса «Основы HR» пройден',
    phrase: 'завершил урок «Знакомство»',
  }),
  legacy('course.completed', /^Курс «(.*)» пройден полностью$/, (m) => ({ course: m[1] }), {
    details: 'Курс «Основы HR» пройден полностью',
    phrase: 'прошёл курс «Основы HR» полностью',
  }),
  legacy('certificate.issued', /^Выдан сертификат за курс «(.*)»$/, (m) => ({ course: m[1] }), {
    details: 'Выдан сертификат за курс «Охрана труда»',
    phrase: 'получил сертификат за курс «Охрана труда»',
  }),
  legacy('programCertificate.issued', /^Выдан сертификат за программу обучения «(.*)»$/, (m) => ({ program: m[1] }), {
    details: 'Выдан сертификат за программу обучения «Адаптация»',
    phrase: 'получил сертификат за программу обучения «Адаптация»',
  }),

  /* --------------------------------------------------------------- candidate links */
  legacy(
    'candidateLink.created',
    /^Создана ссылка для кандидатов на тест «(.*)» \(курс «(.*)»\)$/,
    (m) => ({ quiz: m[1], course: m[2] }),
    {
      details: 'Создана ссылка для кандидатов на тест «Итоговый тест» (курс «Основы HR»)',
      phrase: 'создал ссылку для кандидатов на тест «Итоговый тест»',
    },
  ),
  legacy(
    'candidateLink.revoked',
    /^Отозвана ссылка для кандидатов на тест «(.*)» \(курс «(.*)»\)$/,
    (m) => ({ quiz: m[1], course: m[2] }),
    {
      details: 'Отозвана ссылка для кандидатов на тест «Итоговый тест» (курс «Основы HR»)',
      phrase: 'отозвал ссылку для кандидатов на тест «Итоговый тест»',
    },
  ),
  legacy(
    'candidates.purged',
    /^Удалены данные кандидатов, проходивших тесты по ссылке более (\d+) дн\. назад: (\d+)$/,
    (m) => ({ days: Number(m[1]), deleted: Number(m[2]) }),
    {
      details: 'Удалены данные кандидатов, проходивших тесты по ссылке более 30 дн. назад: 3',
      phrase: 'удалил данные кандидатов, проходивших тесты по ссылке более 30 дн. назад: 3',
    },
  ),

  /* --------------------------------------------------------------- training assignments */
  legacy(
    'assignment.created',
    /^Курс «(.*)» назначен: (.*), срок (\S+)$/,
    (m) => ({ course: m[1], audience: audienceOf(m[2]), dueDate: m[3] }),
    {
      details: 'Курс «Охрана труда» назначен: Подразделение «Склад», срок 2026-12-31',
      phrase: 'назначил курс «Охрана труда»',
    },
  ),
  legacy(
    'assignment.updated',
    /^Изменено назначение курса «(.*)»: (.*), срок (\S+)$/,
    (m) => ({ course: m[1], audience: audienceOf(m[2]), dueDate: m[3] }),
    {
      details: 'Изменено назначение курса «Охрана труда»: Роль «Клиент», срок 2026-12-31',
      phrase: 'изменил назначение курса «Охрана труда»',
    },
  ),
  legacy('assignment.deleted', /^Удалено назначение курса «(.*)»$/, (m) => ({ course: m[1] }), {
    details: 'Удалено назначение курса «Охрана труда»',
    phrase: 'удалил назначение курса «Охрана труда»',
  }),
  legacy(
    'assignment.extended',
    /^Срок назначения курса «(.*)» продлён до (\S+) для (.*)$/,
    // «для всех»: everyone's date; otherwise one person's, by name.
    (m) => ({ course: m[1], dueDate: m[2], ...(m[3] === 'всех' ? {} : { person: m[3] }) }),
    {
      details: 'Срок назначения курса «Охрана труда» продлён до 2027-01-31 для всех',
      phrase: 'продлил срок назначения курса «Охрана труда»',
    },
  ),
  legacy(
    'assignmentReport.exported',
    /^Выгрузка отчёта по назначению курса «(.*)» в (\S+)$/,
    (m) => ({ course: m[1], file: m[2] }),
    {
      details: 'Выгрузка отчёта по назначению курса «Охрана труда» в assignment_report.xlsx',
      phrase: 'выгрузил отчёт по назначению курса «Охрана труда»',
    },
  ),

  /* --------------------------------------------------------------- learning programs */
  legacy('program.created', /^Создана программа обучения «(.*)»: этапов (\d+)$/, (m) => ({ title: m[1], stages: Number(m[2]) }), {
    details: 'Создана программа обучения «Адаптация»: этапов 3',
    phrase: 'создал программу обучения «Адаптация»',
  }),
  legacy(
    'program.created',
    /^Создана программа обучения «(.*)» из шаблона$/,
    (m) => ({ title: m[1], fromTemplate: true as const }),
    {
      details: 'Создана программа обучения «Адаптация новых сотрудников» из шаблона',
      phrase: 'создал программу обучения «Адаптация новых сотрудников»',
    },
  ),
  legacy(
    'program.updated',
    /^Изменена программа обучения «(.*)»: этапов (\d+), курсов (\d+)$/,
    (m) => ({ title: m[1], stages: Number(m[2]), courses: Number(m[3]) }),
    { details: 'Изменена программа обучения «Адаптация»: этапов 3, курсов 4', phrase: 'изменил программу обучения «Адаптация»' },
  ),
  legacy('program.copied', /^Программа обучения «(.*)» скопирована как «(.*)»$/, (m) => ({ source: m[1], title: m[2] }), {
    details: 'Программа обучения «Адаптация» скопирована как «Адаптация (копия)»',
    phrase: 'скопировал программу обучения «Адаптация»',
  }),
  legacy('program.archived', /^Программа обучения «(.*)» перенесена в архив$/, (m) => ({ title: m[1] }), {
    details: 'Программа обучения «Адаптация» перенесена в архив',
    phrase: 'перенёс в архив программу обучения «Адаптация»',
  }),
  legacy('program.restored', /^Программа обучения «(.*)» возвращена из архива$/, (m) => ({ title: m[1] }), {
    details: 'Программа обучения «Адаптация» возвращена из архива',
    phrase: 'вернул из архива программу обучения «Адаптация»',
  }),
  legacy(
    'programAssignment.created',
    /^Программа обучения «(.*)» назначена: (.*)$/,
    (m) => ({ program: m[1], audience: audienceOf(m[2]) }),
    {
      details: 'Программа обучения «Адаптация» назначена: Подразделение «Склад»',
      phrase: 'назначил программу обучения «Адаптация»',
    },
  ),
  legacy('programAssignment.deleted', /^Удалено назначение программы обучения «(.*)»$/, (m) => ({ program: m[1] }), {
    details: 'Удалено назначение программы обучения «Адаптация»',
    phrase: 'удалил назначение программы обучения «Адаптация»',
  }),
  legacy(
    'programStage.extended',
    /^Срок этапа «(.*)» программы «(.*)» продлён до (\S+) для (.*)$/,
    (m) => ({ stage: m[1], program: m[2], dueDate: m[3], person: m[4] }),
    {
      details: 'Срок этапа «Охрана труда» программы «Адаптация» продлён до 2027-01-31 для Анна Смирнова',
      phrase: 'продлил срок этапа «Охрана труда»',
    },
  ),
  legacy(
    'programReport.exported',
    /^Выгрузка отчёта по программе обучения «(.*)» в (\S+)$/,
    (m) => ({ program: m[1], file: m[2] }),
    {
      details: 'Выгрузка отчёта по программе обучения «Адаптация» в program_report.xlsx',
      phrase: 'выгрузил отчёт по программе обучения «Адаптация»',
    },
  ),
];
