import {
  APPLICATION_STATUS_LABELS,
  ASSIGNMENT_STATUS_LABELS,
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  PROGRAM_PERSON_STATUS_LABELS,
  ROLE_LABELS,
  SUBJECT_REQUEST_LABELS,
  type DashboardSource,
} from '@portal/contracts';
import { dateTimeText, formulaSafe, wallClock, type SubjectData } from '@portal/service-kit';

/*
 * The subject-request export as a person reads it: Russian headers, Russian words for
 * every code, dates on the reader's clock, no store internals. The services answer their documents
 * as stored; this is the one place that turns them into what a person is given.
 */

/** Store internals a person learns nothing from: never a column. */
const HIDDEN = new Set([
  ...['_id', '__v', 'id', 'userId', 'eventId', 'actorId', 'service', 'requestId'],
  // where an audit record is filed: its day, hour, minute and ten seconds (its time is «Когда»)
  ...['day', 'hour', 'minute', 'tenSeconds'],
  // Secrets and the seeds of a quiz's shuffling: nothing about the person.
  ...['passwordHash', 'tokenHash', 'shuffleSeed', 'drawSeed'],
  // The act's PDF bytes: downloaded on their own (`/act`).
  'act',
  // a notification's unique key and a program place's last enrolment pass: bookkeeping
  'key',
  'enrolPass',
]);

/** A column's header; a field not named here is shown under «Прочее: <field>». */
const FIELD_LABELS: Record<string, string> = {
  email: 'Email',
  candidateEmail: 'Email кандидата',
  fullName: 'ФИО',
  lastName: 'Фамилия',
  firstName: 'Имя',
  middleName: 'Отчество',
  department: 'Подразделение',
  position: 'Должность',
  role: 'Роль',
  preset: 'Демонстрационная учётная запись',
  linkScope: 'Тест по ссылке',
  version: 'Редакция',
  createdAt: 'Создано',
  updatedAt: 'Изменено',
  acceptedAt: 'Дано',
  withdrawnAt: 'Отозвано',
  address: 'Адрес',
  userAgent: 'Браузер',
  status: 'Статус',
  kind: 'Вид',
  reason: 'Основание',
  userName: 'Имя в запросе',
  userEmail: 'Email в запросе',
  filedBy: 'Подал',
  completedBy: 'Выполнил',
  completedAt: 'Завершено',
  decidedAt: 'Решение принято',
  decidedBy: 'Решение принял',
  summary: 'Итог',
  alias: 'Обозначение',
  hasAct: 'Есть акт',
  expiresAt: 'Истекает',
  courseId: 'Курс (номер)',
  courseTitle: 'Курс',
  courseVersion: 'Версия курса',
  lessonId: 'Урок (номер)',
  lessonTitle: 'Урок',
  quizId: 'Квиз (номер)',
  quizTitle: 'Квиз',
  attemptNumber: 'Попытка №',
  answers: 'Ответы',
  savedAnswers: 'Сохранённые по ходу ответы',
  savedAt: 'Ответы сохранены',
  score: 'Баллы',
  maxScore: 'Максимум баллов',
  percentage: 'Результат, %',
  passed: 'Пройден',
  startedAt: 'Начата',
  submittedAt: 'Отправлена',
  timeSpent: 'Время, с',
  questionOrder: 'Порядок вопросов',
  audience: 'Кому',
  audienceUserIds: 'Назначено людям (номера)',
  dueDate: 'Срок',
  mandatory: 'Обязательный',
  message: 'Сообщение',
  createdBy: 'Автор',
  createdByName: 'Автор',
  number: 'Номер',
  issuedAt: 'Выдан',
  hours: 'Часов',
  title: 'Заголовок',
  text: 'Текст',
  body: 'Текст',
  link: 'Ссылка',
  readAt: 'Прочитано',
  name: 'Файл',
  url: 'Ссылка',
  originalName: 'Имя файла',
  mimeType: 'Тип файла',
  size: 'Размер, байт',
  phone: 'Телефон',
  orgId: 'Организация (номер)',
  orgName: 'Организация',
  action: 'Действие',
  entity: 'Объект',
  entityId: 'Объект (номер)',
  details: 'Описание',
  actor: 'Кто',
  timestamp: 'Когда',
  from: 'Было',
  to: 'Стало',
  days: 'Дней',
  viaLink: 'По ссылке',
  reviewedBy: 'Проверил',
  reviewedAt: 'Проверено',
  actNumber: 'Номер акта',
  answer: 'Ответ',
  assignedNotified: 'Уведомление о назначении',
  audienceDepartment: 'Подразделение назначения',
  audienceKind: 'Кому назначено',
  audienceRole: 'Роль назначения',
  awaitingReview: 'Ожидает проверки',
  by: 'Кем',
  byRole: 'Роль того, кто сделал',
  counts: 'Количество',
  courseHours: 'Часов курса',
  deadline: 'Крайний срок',
  error: 'Ошибка',
  expiredBy: 'Просрочено на',
  fileName: 'Имя файла',
  finishedAt: 'Завершено',
  isCorrect: 'Верно',
  late: 'С опозданием',
  leftOrder: 'Порядок слева',
  rightOrder: 'Порядок справа',
  lessonIds: 'Уроки (номера)',
  maxAttempts: 'Попыток не больше',
  maxUses: 'Использований не больше',
  needsReview: 'Нужна проверка',
  optionOrder: 'Порядок вариантов',
  passingScore: 'Проходной балл, %',
  pendingReviews: 'Ожидают проверки',
  points: 'Баллы за вопрос',
  question: 'Вопрос',
  questionId: 'Вопрос (номер)',
  questions: 'Вопросы',
  questionIds: 'Вопросы (номера)',
  quizDescription: 'Описание квиза',
  quizLessonIds: 'Уроки с квизами (номера)',
  recurrenceMonths: 'Повтор, месяцев',
  recurringRemindedFor: 'Напоминание о повторе',
  resultHidden: 'Результат скрыт',
  review: 'Проверка',
  revokedAt: 'Отозвана',
  revokedBy: 'Отозвал',
  scoring: 'Подсчёт баллов',
  showCorrectAnswers: 'Показывать верные ответы',
  showExplanations: 'Показывать пояснения',
  showResult: 'Показывать результат',
  timeLimit: 'Ограничение времени',
  timeLimitMinutes: 'Ограничение времени, мин',
  total: 'Всего',
  uses: 'Использований',
  validUntil: 'Действует до',
  viaLinkId: 'Ссылка (номер)',
  // learning programs: a person's place in one, and the programs they wrote
  assignmentId: 'Назначение (номер)',
  programId: 'Программа (номер)',
  cycle: 'Прохождение №',
  startDate: 'Начало',
  validFrom: 'Засчитываются прохождения с',
  stagesCompleted: 'Пройдено этапов',
  currentStageKey: 'Текущий этап (ключ)',
  currentDue: 'Срок текущего этапа',
  earliestDue: 'Ближайший срок',
  state: 'Положение',
  certificateNumber: 'Сертификат',
  extensions: 'Продлённые сроки этапов',
  left: 'Вне аудитории',
  description: 'Описание',
  certificate: 'Выдавать сертификат',
  stages: 'Этапы',
  owner: 'Автор',
  coAuthorIds: 'Соавторы (номера)',
  courseIds: 'Курсы (номера)',
};

const STATUS_LABELS: Record<string, string> = {
  ...APPLICATION_STATUS_LABELS,
  ...ASSIGNMENT_STATUS_LABELS,
  active: 'Действует',
  archived: 'В архиве',
  open: 'Открыт',
  done: 'Выполнен',
  in_progress: 'В процессе',
  passed: 'Пройден',
  failed: 'Не пройден',
  pending: 'На проверке',
  submitted: 'Отправлен',
};
const REASON_LABELS: Record<string, string> = {
  withdrawal: 'Отзыв согласия',
  admin: 'Решение администратора',
};

/** Russian words for the codes of a field, where the field holds a code. */
const CODES: Record<string, Record<string, string>> = {
  role: ROLE_LABELS,
  status: STATUS_LABELS,
  action: AUDIT_ACTION_LABELS,
  entity: AUDIT_ENTITY_LABELS,
  kind: SUBJECT_REQUEST_LABELS,
  reason: REASON_LABELS,
  state: PROGRAM_PERSON_STATUS_LABELS,
};

const ROLE_CODE = new RegExp(`\\b(${Object.keys(ROLE_LABELS).join('|')})\\b`, 'g');
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

/** A sheet's name: whole words within Excel's 31 characters. */
export const sheetName = (name: string, taken: Set<string>): string => {
  let short = name;
  if (short.length > 31) short = short.slice(0, 31).replace(/\s+\S*$/, '');
  for (let n = 2; taken.has(short); n++) short = `${short.slice(0, 27)} (${n})`;
  taken.add(short);
  return short;
};

const label = (field: string): string => FIELD_LABELS[field] ?? `Прочее: ${field}`;

/** One value as a person reads it: a date on their clock, a code as its word, a role named in a text. */
function readable(field: string, value: unknown, timeZone: string): string | number | Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return value ? 'да' : 'нет';
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    if (ISO_INSTANT.test(value)) return new Date(value);
    const code = CODES[field]?.[value];
    if (code) return code;
    return value.replace(ROLE_CODE, (role) => ROLE_LABELS[role as keyof typeof ROLE_LABELS]);
  }
  if (field === 'actor' && typeof value === 'object') {
    const actor = value as { fullName?: string; email?: string };
    return [actor.fullName, actor.email].filter(Boolean).join(', ') || null;
  }
  // Anything nested (answers, an audience) as text, its dates on the reader's clock.
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'string' && ISO_INSTANT.test(v) ? dateTimeText(new Date(v), timeZone) : v,
  );
}

export interface ReadableTable {
  sheet: string;
  /** The collection as the service named it («Попытки квизов»). */
  title: string;
  headers: string[];
  rows: Array<Array<string | number | Date | null>>;
}

/** The services' answers as tables a person reads, one per collection, each with its header row. */
export function readableTables(data: Partial<Record<DashboardSource, SubjectData>>, timeZone: string): ReadableTable[] {
  const taken = new Set<string>();
  const tables: ReadableTable[] = [];
  for (const collections of Object.values(data))
    for (const [title, docs] of Object.entries(collections ?? {})) {
      const rows = docs as Array<Record<string, unknown>>;
      const fields = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((f) => !HIDDEN.has(f));
      tables.push({
        sheet: sheetName(title, taken),
        title,
        headers: fields.length ? fields.map(label) : ['Записей нет'],
        rows: rows.map((row) => fields.map((f) => readable(f, row[f], timeZone))),
      });
    }
  return tables;
}

/** The tables as JSON a person reads: per collection, records with Russian keys and dates on their clock. */
export const readableJson = (tables: ReadableTable[], timeZone: string): Record<string, Array<Record<string, unknown>>> =>
  Object.fromEntries(
    tables.map((t) => [
      t.title,
      t.rows.map((row) =>
        Object.fromEntries(
          row.flatMap((cell, i) =>
            cell === null ? [] : [[t.headers[i], cell instanceof Date ? dateTimeText(cell, timeZone) : cell]],
          ),
        ),
      ),
    ]),
  );

/** A cell of the XLSX: a date as its wall clock there (with the date format), text made formula-safe. */
export const xlsxCell = (cell: string | number | Date | null, timeZone: string): string | number | Date | null =>
  cell instanceof Date ? wallClock(cell, timeZone) : typeof cell === 'string' ? formulaSafe(cell) : cell;

/** The CSV: one line per value (section, record, field, value), so every collection fits one file. */
export function readableCsv(tables: ReadableTable[], timeZone: string): string {
  const field = (text: string) => `"${formulaSafe(text).replace(/"/g, '""')}"`;
  const lines = [['Раздел', 'Запись', 'Поле', 'Значение'].map(field).join(';')];
  for (const t of tables)
    t.rows.forEach((row, n) =>
      row.forEach((cell, i) => {
        if (cell === null) return;
        const text =
          cell instanceof Date ? dateTimeText(cell, timeZone) : typeof cell === 'number' ? String(cell).replace('.', ',') : cell;
        lines.push([t.title, String(n + 1), t.headers[i], text].map(field).join(';'));
      }),
    );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
