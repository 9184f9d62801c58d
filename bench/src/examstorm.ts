import { randomBytes } from 'node:crypto';
import {
  CONSENT_DOCUMENT,
  MAX_ASSIGNED_USERS,
  dayOf,
  type AnswerValue,
  type AttemptAnswerInput,
  type AttemptDetail,
  type AuthResponse,
  type NotificationPage,
  type PlayerQuestion,
  type Question,
  type QuizInput,
  type StartedAttempt,
} from '@portal/contracts';
import { answerText, isAnswerCorrect, isBlank, toQuizTerms, type ShownQuestion } from '@portal/quiz-engine';
import { cpuSplitNote, pidListeningOn, stackCpuParts } from './capacity';
import { QUICK, type Figure } from './harness';
import { BROWSER, PRESET_ADMIN, call, pct, pool, startBenchStack } from './portal';
import { storeCounts, storeOpsSplit } from './storeOps';

/**
 * The exam storm (BUDGETS.md, «exam storm»): N learners, registered, assigned the course and signed in
 * beforehand, start one 20-question quiz within a minute, answer it over a compressed attempt and
 * submit within a minute at the end, each doing what the player does, through the gateway only.
 * Then every graded attempt is read back and compared with what its learner sent.
 *
 * The player saves the answers given so far on the server as the learner goes
 * (`PUT /api/attempts/:id/answers`, docs/decisions/095), and so does each learner here after every
 * answer; `answerSave: null` (or BENCH_EXAM_SAVE=none) gives them without a request, as the player
 * did before it saved.
 */

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The budgets of BUDGETS.md's exam storm row, in ms. */
export const EXAM_STORM_TARGETS = { startP95: 1000, saveP95: 300, submitP95: 1000, errors: 0, lost: 0 } as const;

/** A request the player would make to save the answers given so far (`:id` is the attempt's). */
export interface AnswerSaveRoute {
  method: 'PUT' | 'PATCH' | 'POST';
  path: string;
}

/**
 * Read just before the first start and just after the last submit; gives a line of the report (the
 * bench's CPU split and store operations per request). `requests` is how many were answered between.
 */
export type StormProbe = () => Promise<(requests: number) => Promise<string>>;

export interface ExamStormOptions {
  gatewayUrl: string;
  learners: number;
  /** Staff who builds the course and assigns it: a token, or the preset administrator's sign-in. */
  adminToken?: string;
  /** Fixes the start and submit times and each learner's answers. */
  seed?: number;
  /** All start within this many seconds (default 60; 15 with BENCH_QUICK=1). */
  startSpreadSeconds?: number;
  /** The 20 minutes of the quiz compressed: the mean attempt lasts this long (default 180 s; 45 quick). */
  attemptSeconds?: number;
  /** All submit within this many seconds at the end (default 60; 15 quick). */
  submitSpreadSeconds?: number;
  /** The route the player saves answers to during the attempt (its own by default; null: none). */
  answerSave?: AnswerSaveRoute | null;
  probes?: Record<string, StormProbe>;
  log?: (line: string) => void;
}

export interface Timing {
  count: number;
  /** Of `count`, the requests that failed (their time counts in the percentiles too). */
  failed: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface ExamStormResult {
  learners: number;
  questions: number;
  /** Seconds spent registering, assigning and building the quiz (not timed). */
  arrangeSeconds: number;
  /** Seconds from the first start to the last submit's answer. */
  stormSeconds: number;
  windows: { startSpread: number; attempt: number; submitSpread: number };
  /** The quiz card the lesson shows just before the start (GET /api/attempts/quiz/{id}). */
  card: Timing;
  start: Timing;
  /** null: the player saves no answer on the server (nothing to time). */
  save: Timing | null;
  saveRoute: string | null;
  submit: Timing;
  /** Every failed request by `<route> <status> <message>` (status 0: no answer, with the cause). */
  errors: Record<string, number>;
  errorCount: number;
  requests: number;
  /** Learners who never got an attempt, and who never got one graded (after the player's retries). */
  notStarted: number;
  notGraded: number;
  /** Answers a learner sent that the graded attempt, read back, does not hold as sent. */
  /** `heldSaved`: answers of attempts still open, held among their saved answers (graded when their time runs out). */
  lost: { answers: number; sent: number; inUngraded: number; heldSaved: number; examples: string[] };
  /** Each probe's line (the CPU split, store operations per request). */
  probes: Record<string, string>;
}

/* ------------------------------------------------------------------------------ the quiz */

const examQuestion = (
  id: number,
  fields: Omit<Question, 'id' | 'order' | 'points' | 'options' | 'correctAnswers'> & Partial<Question>,
) => ({ id: `q${id}`, order: id - 1, points: 1, options: [], correctAnswers: [], ...fields }) as Question;

/**
 * Twenty questions of the types the player shows, choice first (every option and pair text unique,
 * which lets a learner answer by what is shown whatever the shuffle).
 */
export const EXAM_QUESTIONS: Question[] = [
  examQuestion(1, {
    type: 'single_choice',
    question: 'Сколько календарных дней длится ежегодный основной оплачиваемый отпуск?',
    options: ['14', '28', '31', '56'],
    correctAnswers: [1],
  }),
  examQuestion(2, {
    type: 'single_choice',
    question: 'Какой наибольший срок испытания для рядового работника?',
    options: ['1 месяц', '3 месяца', '6 месяцев', '1 год'],
    correctAnswers: [1],
  }),
  examQuestion(3, {
    type: 'single_choice',
    question: 'Кто подписывает трудовой договор со стороны работодателя?',
    options: ['Любой коллега', 'Уполномоченное лицо', 'Сам работник', 'Профсоюз'],
    correctAnswers: [1],
  }),
  examQuestion(4, {
    type: 'single_choice',
    question: 'Какова нормальная продолжительность рабочего времени в неделю?',
    options: ['36 часов', '40 часов', '42 часа', '48 часов'],
    correctAnswers: [1],
  }),
  examQuestion(5, {
    type: 'single_choice',
    question: 'За сколько дней работник предупреждает об увольнении по собственному желанию?',
    options: ['3 дня', '14 дней', '30 дней', '2 месяца'],
    correctAnswers: [1],
  }),
  examQuestion(6, {
    type: 'single_choice',
    question: 'Когда проводится вводный инструктаж по охране труда?',
    options: ['До начала работы', 'Через месяц', 'Раз в год', 'После отпуска'],
    correctAnswers: [0],
  }),
  examQuestion(7, {
    type: 'multiple_choice',
    question: 'Какие документы предъявляются при приёме на работу?',
    options: ['Паспорт', 'Сведения о трудовой деятельности', 'Школьный дневник', 'Справка о росте'],
    correctAnswers: [0, 1],
  }),
  examQuestion(8, {
    type: 'multiple_choice',
    question: 'Что относится к персональным данным работника?',
    options: ['Фамилия, имя, отчество', 'Номер телефона', 'Курс валют', 'Прогноз погоды'],
    correctAnswers: [0, 1],
  }),
  examQuestion(9, {
    type: 'multiple_choice',
    question: 'Какие инструктажи по охране труда бывают?',
    options: ['Вводный', 'Первичный', 'Праздничный', 'Повторный'],
    correctAnswers: [0, 1, 3],
  }),
  examQuestion(10, {
    type: 'true_false',
    question: 'Заработная плата выплачивается не реже чем каждые полмесяца',
    correctAnswer: 'true',
  }),
  examQuestion(11, {
    type: 'true_false',
    question: 'Работодатель вправе не оформлять трудовой договор письменно',
    correctAnswer: 'false',
  }),
  examQuestion(12, {
    type: 'true_false',
    question: 'Сверхурочная работа оплачивается в повышенном размере',
    correctAnswer: 'true',
  }),
  examQuestion(13, { type: 'short_answer', question: 'Главный закон о труде в России', correctAnswer: 'Трудовой кодекс' }),
  examQuestion(14, {
    type: 'short_answer',
    question: 'Каким документом работодатель оформляет приём на работу?',
    correctAnswer: 'Приказ',
  }),
  examQuestion(15, {
    type: 'numeric',
    question: 'Со скольких лет по общему правилу заключают трудовой договор?',
    correctAnswer: '16',
  }),
  examQuestion(16, { type: 'numeric', question: 'Сколько часов в неделю работают работники до 16 лет?', correctAnswer: '24' }),
  examQuestion(17, {
    type: 'ordering',
    question: 'Расположите шаги приёма на работу по порядку',
    options: ['Собеседование', 'Подписание договора', 'Издание приказа', 'Выход на работу'],
  }),
  examQuestion(18, {
    type: 'fill_blanks',
    question: 'Трудовой договор заключается в ___ форме в ___ экземплярах',
    blanks: ['письменной', 'двух'],
  }),
  examQuestion(19, {
    type: 'matching',
    question: 'Сопоставьте отпуск и его суть',
    pairs: [
      { left: 'Основной', right: 'Ежегодный оплачиваемый' },
      { left: 'Учебный', right: 'На время сессии' },
      { left: 'Без сохранения оплаты', right: 'За свой счёт' },
    ],
  }),
  examQuestion(20, {
    type: 'matrix',
    question: 'Отметьте, чья это обязанность',
    rows: ['Провести инструктаж', 'Выдать расчётный листок', 'Написать заявление на отпуск'],
    options: ['Работодатель', 'Работник'],
    correctAnswers: [0, 0, 1],
  }),
];

const examQuiz = (courseId: string): QuizInput => ({
  title: 'Итоговый тест по охране труда и кадровому делу',
  description: 'Экзамен для всех сотрудников: 20 вопросов, 20 минут',
  courseId,
  questions: EXAM_QUESTIONS,
  settings: {
    randomizeQuestions: true,
    randomizeAnswers: true,
    passingScore: 70,
    maxAttempts: 3,
    showExplanations: 'after_submission',
    showCorrectAnswers: 'after_each_attempt',
    timeLimit: 20,
  },
});

/* ------------------------------------------------------------------------------ answers */

/**
 * A question as this attempt showed it, in the engine's terms: the orders are found back from the
 * texts shown (each unique), so the engine's own `toQuizTerms` and `answerText` say what the server
 * should hold for an answer.
 */
function shownAs(question: Question, shown: PlayerQuestion): ShownQuestion {
  const identity = (n: number) => Array.from({ length: n }, (_, i) => i);
  const pairs = question.pairs ?? [];
  const reordered = ['single_choice', 'multiple_choice', 'ordering'].includes(question.type);
  return {
    ...question,
    optionOrder: reordered ? shown.options.map((text) => question.options.indexOf(text)) : identity(question.options.length),
    leftOrder: question.type === 'matching' ? (shown.left ?? []).map((t) => pairs.findIndex((p) => p.left === t)) : [],
    rightOrder: question.type === 'matching' ? (shown.right ?? []).map((t) => pairs.findIndex((p) => p.right === t)) : [],
  };
}

/** What a learner answers to a shown question: right, wrong or nothing, in the order shown, as the player sends it. */
function answerFor(question: Question, shown: PlayerQuestion, choice: 'right' | 'wrong' | 'blank'): AnswerValue {
  if (choice === 'blank') return null;
  const right = choice === 'right';
  const at = (text: string) => shown.options.indexOf(text);
  switch (question.type) {
    case 'single_choice': {
      const correct = at(question.options[question.correctAnswers[0]]);
      return right ? correct : (correct + 1) % shown.options.length;
    }
    case 'multiple_choice': {
      const correct = question.correctAnswers.map((i) => at(question.options[i]));
      return right ? correct : correct.slice(0, 1);
    }
    case 'ordering': {
      const correct = question.options.map(at);
      return right ? correct : [...correct].reverse();
    }
    case 'matching': {
      const pairs = question.pairs ?? [];
      const answer: Record<string, number> = {};
      (shown.left ?? []).forEach((left, l) => {
        const pair = pairs.findIndex((p) => p.left === left);
        const target = right ? pair : (pair + 1) % pairs.length;
        answer[String(l)] = (shown.right ?? []).indexOf(pairs[target].right);
      });
      return answer;
    }
    case 'matrix':
      return Object.fromEntries(question.correctAnswers.map((column, row) => [String(row), right ? column : 1 - column]));
    case 'fill_blanks':
      return right ? [...(question.blanks ?? [])] : (question.blanks ?? []).map(() => 'не знаю');
    case 'true_false':
      return right ? question.correctAnswer! : question.correctAnswer === 'true' ? 'false' : 'true';
    case 'numeric':
      return right ? question.correctAnswer! : '0';
    default:
      return right ? (question.correctAnswer ?? '') : 'Не помню';
  }
}

/* ------------------------------------------------------------------------------ arrangement */

interface Learner {
  token: string;
  userId: string;
}
interface Exam {
  courseId: string;
  lessonId: string;
  quizId: string;
}

/** A published course with one module and one lesson holding the quiz, built through the gateway as an author would. */
async function buildExam(gateway: string, admin: string): Promise<Exam> {
  const course = await call<{ id: string }>(gateway, 'POST', '/api/courses', admin, {
    title: 'Охрана труда и кадровое дело: итоговый экзамен',
    description: 'Обязательный курс для всех сотрудников',
    isPublished: true,
  });
  const quiz = await call<{ id: string }>(gateway, 'POST', '/api/quizzes', admin, examQuiz(course.id));
  const moduleId = (
    await call<{ id: string }>(gateway, 'POST', '/api/blocks', admin, { type: 'MODULE', courseId: course.id, title: 'Экзамен' })
  ).id;
  const lesson = await call<{ id: string }>(gateway, 'POST', '/api/blocks', admin, {
    courseId: course.id,
    moduleId,
    title: 'Итоговый тест',
    status: 'published',
    content: [
      { type: 'heading', content: { text: 'Итоговый тест' } },
      { type: 'text', content: { text: 'На тест отводится 20 минут. Ответы отправляются кнопкой «Завершить».' } },
      { type: 'quiz', content: { quizId: quiz.id, questionsCount: EXAM_QUESTIONS.length } },
    ],
  });
  return { courseId: course.id, lessonId: lesson.id, quizId: quiz.id };
}

/** Learners registered through the gateway as the registration form does (consent given): each signed in with its token. */
async function registerLearners(gateway: string, count: number, log: (line: string) => void): Promise<Learner[]> {
  const tag = randomBytes(3).toString('hex');
  const learners = new Array<Learner>(count);
  let done = 0;
  // Four at a time: each registration hashes a password (argon2id), the auth service's cost.
  await pool(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) => {
      const answer = await call<AuthResponse>(gateway, 'POST', '/api/auth/register', null, {
        email: `exam${i}.${tag}@bench.test`,
        password: 'Learner12345',
        fullName: `Экзаменуемый Нагрузочный ${i + 1}`,
        role: 'CANDIDATE',
        consentVersion: CONSENT_DOCUMENT.version,
      });
      learners[i] = { token: answer.token, userId: answer.user.id };
      if (++done % 250 === 0) log(`    ${done} of ${count} learners registered`);
    },
  );
  return learners;
}

/**
 * The course assigned to every learner through the assignment API (at most MAX_ASSIGNED_USERS named
 * a call), then a wait until the «назначен» notifications have reached them: that job goes through
 * the whole audience in the background and must not run beside the storm.
 */
async function assignCourse(gateway: string, admin: string, exam: Exam, learners: Learner[], log: (line: string) => void) {
  const dueDate = dayOf(new Date(Date.now() + 7 * 86_400_000));
  const groups: Learner[][] = [];
  for (let i = 0; i < learners.length; i += MAX_ASSIGNED_USERS) groups.push(learners.slice(i, i + MAX_ASSIGNED_USERS));
  for (const group of groups)
    await call(gateway, 'POST', '/api/assignments', admin, {
      courseId: exam.courseId,
      audience: { kind: 'users', userIds: group.map((l) => l.userId) },
      dueDate,
      mandatory: true,
      message: 'Итоговый тест сдаётся всеми сотрудниками в один день',
    });
  // The first, middle and last person of each assignment: the job goes through an audience page by page.
  const watched = groups.flatMap((g) => [g[0], g[Math.floor(g.length / 2)], g[g.length - 1]]);
  const told = (learner: Learner) =>
    call<NotificationPage>(gateway, 'GET', '/api/notifications?page=1&limit=5', learner.token).then(
      (page) => page.data.some((n) => n.kind === 'assigned'),
      () => false,
    );
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    if ((await Promise.all(watched.map(told))).every(Boolean)) return sleep(3000); // and its last writes settle
    await sleep(2000);
  }
  log('    the «назначен» notifications had not reached every learner within 180 s: the storm may run beside them');
}

/**
 * Waits until the audit trail stops growing (its count and newest record the same for 4 s): the
 * registrations' and the assignment's events are written by a worker in the background, and must
 * not be written beside the storm. Gives up after 60 s (another client may be writing).
 */
async function auditSettled(gateway: string, admin: string, log: (line: string) => void) {
  let seen: string[] = [];
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const page = await call<{ total: number; data: Array<{ id: string }> }>(
      gateway,
      'GET',
      '/api/audit?page=1&limit=1&sort=newest',
      admin,
    ).catch(() => null);
    const mark = page ? `${page.total} ${page.data[0]?.id ?? ''}` : String(Date.now());
    if (seen.length >= 2 && seen.every((m) => m === mark)) return;
    seen = [...seen.slice(-1), mark];
    await sleep(2000);
  }
  log('    the audit trail was still growing after 60 s: the storm may run beside its worker');
}

/* ------------------------------------------------------------------------------ the storm */

/** A small seeded generator (mulberry32): the same seed, the same storm. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Plan {
  /** Ms after the storm begins. */
  startAt: number;
  submitAt: number;
  /** When each answer is given, as a share of the time between the start's answer and the submit. */
  answerAt: number[];
  choices: Array<'right' | 'wrong' | 'blank'>;
}

function planFor(random: () => number, windows: ExamStormResult['windows'], questions: number): Plan {
  const startAt = random() * windows.startSpread * 1000;
  const submitAt = Math.max((windows.attempt + random() * windows.submitSpread) * 1000, startAt + 10_000);
  const answerAt = Array.from({ length: questions }, () => random()).sort((a, b) => a - b);
  const choices = Array.from({ length: questions }, () => {
    const r = random();
    return r < 0.05 ? 'blank' : r < 0.75 ? 'right' : 'wrong';
  });
  return { startAt, submitAt, answerAt, choices };
}

type Kind = 'card' | 'start' | 'save' | 'submit';

/** Every response time by kind of request, and every failure by route, status and message. */
class Recorder {
  readonly times: Record<Kind, number[]> = { card: [], start: [], save: [], submit: [] };
  readonly errors: Record<string, number> = {};
  readonly failed: Record<Kind, number> = { card: 0, start: 0, save: 0, submit: 0 };

  /** One request as the player makes it (its headers, gzip accepted as a browser does); null when it failed. */
  async request<T>(kind: Kind, label: string, url: string, token: string, method = 'GET', body?: unknown): Promise<T | null> {
    const started = performance.now();
    try {
      const answer = await fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          ...BROWSER,
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await answer.text();
      this.times[kind].push(performance.now() - started);
      if (answer.ok) {
        try {
          return JSON.parse(text) as T;
        } catch {
          this.fail(kind, `${label} ${answer.status} not JSON: ${text.slice(0, 60)}`);
          return null;
        }
      }
      let message = text.slice(0, 120);
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {
        // not JSON: the text itself
      }
      this.fail(kind, `${label} ${answer.status} ${message}`);
    } catch (err) {
      // The time waited counts too: a timeout left out would flatter p99.
      this.times[kind].push(performance.now() - started);
      const cause = (err as { cause?: { code?: string } }).cause;
      this.fail(kind, `${label} 0 ${cause?.code ?? (err as Error).name}`);
    }
    return null;
  }

  private fail(kind: Kind, key: string) {
    this.failed[kind]++;
    this.errors[key] = (this.errors[key] ?? 0) + 1;
  }
}

interface Taken {
  attemptId: string | null;
  shown: PlayerQuestion[];
  /** The list of the last submit sent (null: none was sent). */
  sent: AttemptAnswerInput[] | null;
  graded: boolean;
}

/** Tries a step as a person does after an error: reads it, presses again; three times at most. */
async function withRetries<T>(step: () => Promise<T | null>): Promise<T | null> {
  for (let attempt = 1; ; attempt++) {
    const result = await step();
    if (result || attempt === 3) return result;
    await sleep(2000);
  }
}

/** One learner: opens the quiz, starts it, answers over the attempt, submits; each request as the player makes it. */
async function takeExam(
  gateway: string,
  exam: Exam,
  learner: Learner,
  plan: Plan,
  begin: number,
  recorder: Recorder,
  saveRoute: AnswerSaveRoute | null,
): Promise<Taken> {
  const byId = new Map(EXAM_QUESTIONS.map((question) => [question.id, question]));
  await sleep(begin + plan.startAt - performance.now());
  await recorder.request('card', 'GET /api/attempts/quiz/{id}', `${gateway}/api/attempts/quiz/${exam.quizId}`, learner.token);
  const started = await withRetries(() =>
    recorder.request<StartedAttempt>('start', 'POST /api/attempts', `${gateway}/api/attempts`, learner.token, 'POST', {
      quizId: exam.quizId,
      courseId: exam.courseId,
      lessonId: exam.lessonId,
    }),
  );
  if (!started) return { attemptId: null, shown: [], sent: null, graded: false };
  const attemptId = started.attempt.id;
  const shown = started.questions;
  const answers: Record<string, AnswerValue> = {};
  const timeSpent: Record<string, number> = {};
  const from = performance.now();
  const submitAt = Math.max(begin + plan.submitAt, from + 5000);
  let last = from;
  const list = () =>
    shown.map((s) => ({
      questionId: s.id,
      answer: isBlank(answers[s.id]) ? null : answers[s.id],
      timeSpent: Math.round(timeSpent[s.id] ?? 0),
    }));
  // The questions in the order shown, one after another, spread over the attempt.
  for (const [k, s] of shown.entries()) {
    await sleep(from + plan.answerAt[k] * (submitAt - from) - performance.now());
    const question = byId.get(s.id);
    if (!question) continue; // not a question of this quiz: left unanswered
    answers[s.id] = answerFor(question, s, plan.choices[k % plan.choices.length]);
    timeSpent[s.id] = (performance.now() - last) / 1000;
    last = performance.now();
    if (saveRoute) {
      const path = saveRoute.path.replace(':id', encodeURIComponent(attemptId));
      await recorder.request(
        'save',
        `${saveRoute.method} ${saveRoute.path}`,
        `${gateway}${path}`,
        learner.token,
        saveRoute.method,
        {
          answers: list(),
        },
      );
    }
  }
  await sleep(submitAt - performance.now());
  const sent = list();
  const graded = await withRetries(() =>
    recorder.request<AttemptDetail>(
      'submit',
      'POST /api/attempts/{id}/submit',
      `${gateway}/api/attempts/${encodeURIComponent(attemptId)}/submit`,
      learner.token,
      'POST',
      { answers: sent },
    ),
  );
  return { attemptId, shown, sent, graded: !!graded };
}

/** Whether an open attempt's saved answers hold this answer as it was sent. */
const savedAsSent = (detail: AttemptDetail, answer: { questionId: string; answer: unknown }): boolean =>
  JSON.stringify(detail.savedAnswers?.answers.find((s) => s.questionId === answer.questionId)?.answer) ===
  JSON.stringify(answer.answer);

/**
 * Each sent answer against the attempt read back: held as sent (graded: the engine's words and verdict
 * for it; still open: among its saved answers), or lost.
 */
function lostAnswers(
  taken: Taken,
  detail: AttemptDetail | null,
): { sent: number; lost: number; heldSaved: number; examples: string[] } {
  const examples: string[] = [];
  let sent = 0;
  let lost = 0;
  let heldSaved = 0;
  const byId = new Map(EXAM_QUESTIONS.map((question) => [question.id, question]));
  for (const answer of taken.sent ?? []) {
    const question = byId.get(answer.questionId);
    const shown = taken.shown.find((s) => s.id === answer.questionId);
    if (!question || !shown || answer.answer === null) continue;
    sent++;
    const terms = toQuizTerms(shownAs(question, shown), answer.answer);
    const expected = terms.ok ? answerText(question, terms.value) : null;
    const right = terms.ok && terms.value !== null ? isAnswerCorrect(question, terms.value) : false;
    // An attempt still open (every submit refused) holds what the player saved: graded as saved when its time runs out.
    if (detail?.status === 'in_progress' && savedAsSent(detail, answer)) {
      heldSaved++;
      continue;
    }
    const held = detail?.questions.find((r) => r.questionId === answer.questionId);
    if (!detail || detail.status === 'in_progress' || !held || held.answerText !== expected || held.isCorrect !== right) {
      lost++;
      if (examples.length < 3)
        examples.push(
          `${answer.questionId}: sent «${expected}» (${right ? 'right' : 'wrong'}), held ${held ? `«${held.answerText}» (${held.isCorrect ? 'right' : 'wrong'})` : detail ? 'nothing' : 'no attempt'}`,
        );
    }
  }
  return { sent, lost, heldSaved, examples };
}

const timing = (list: number[], failed: number): Timing => {
  const sorted = [...list].sort((a, b) => a - b);
  return {
    count: sorted.length,
    failed,
    p50: round(pct(sorted, 0.5)),
    p95: round(pct(sorted, 0.95)),
    p99: round(pct(sorted, 0.99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
  };
};

/** The player's own save of the answers so far (docs/decisions/095). */
export const PLAYER_ANSWER_SAVE: AnswerSaveRoute = { method: 'PUT', path: '/api/attempts/:id/answers' };

/** `METHOD /path/:id`, as BENCH_EXAM_SAVE says it; the player's save when unset, null for `none`. */
export function saveRouteFromEnv(raw = process.env.BENCH_EXAM_SAVE): AnswerSaveRoute | null {
  if (!raw?.trim()) return PLAYER_ANSWER_SAVE;
  const match = /^(PUT|PATCH|POST)\s+(\/\S+)$/.exec(raw.trim());
  return match ? { method: match[1] as AnswerSaveRoute['method'], path: match[2] } : null;
}

/**
 * Arranges (learners, the course and its quiz, the assignment; not timed) and runs the storm against
 * a gateway, then reads every attempt back. Usable against any stack: only public routes are called.
 */
export async function runExamStorm(options: ExamStormOptions): Promise<ExamStormResult> {
  const gateway = options.gatewayUrl.replace(/\/$/, '');
  const log = options.log ?? ((line: string) => console.log(line));
  const windows = {
    startSpread: options.startSpreadSeconds ?? (QUICK ? 15 : 60),
    attempt: options.attemptSeconds ?? (QUICK ? 45 : 180),
    submitSpread: options.submitSpreadSeconds ?? (QUICK ? 15 : 60),
  };
  const saveRoute = options.answerSave === undefined ? saveRouteFromEnv() : options.answerSave;

  const arranging = Date.now();
  const admin =
    options.adminToken ?? (await call<{ token: string }>(gateway, 'POST', '/api/auth/login', null, PRESET_ADMIN)).token;
  const exam = await buildExam(gateway, admin);
  const learners = await registerLearners(gateway, options.learners, log);
  await assignCourse(gateway, admin, exam, learners, log);
  await auditSettled(gateway, admin, log);
  const arrangeSeconds = (Date.now() - arranging) / 1000;
  log(`    arranged in ${round(arrangeSeconds)} s: ${learners.length} learners signed in, the course assigned`);

  const random = seeded(options.seed ?? 56);
  const plans = learners.map(() => planFor(random, windows, EXAM_QUESTIONS.length));
  const recorder = new Recorder();
  const probes = Object.entries(options.probes ?? {});
  const finishes = await Promise.all(probes.map(([, probe]) => probe()));
  log(
    `    storm: starts over ${windows.startSpread} s, attempts of ${windows.attempt} s on average, submits over ${windows.submitSpread} s` +
      `${saveRoute ? `, each answer saved by ${saveRoute.method} ${saveRoute.path}` : ', answers kept in the tab as the player does'}`,
  );
  const begin = performance.now();
  const progress = setInterval(() => {
    const { start, save, submit } = recorder.times;
    const failed = Object.values(recorder.errors).reduce((sum, n) => sum + n, 0);
    log(
      `    ${Math.round((performance.now() - begin) / 1000)} s: ${start.length} starts, ${save.length} saves, ${submit.length} submits answered, ${failed} failed`,
    );
  }, 30_000);
  const taken = await Promise.all(
    learners.map((l, i) => takeExam(gateway, exam, l, plans[i], begin, recorder, saveRoute)),
  ).finally(() => clearInterval(progress));
  const stormSeconds = (performance.now() - begin) / 1000;
  const requests = Object.values(recorder.times).reduce((sum, list) => sum + list.length, 0);
  const probeLines = Object.fromEntries(await Promise.all(probes.map(async ([name], i) => [name, await finishes[i](requests)])));

  // Read back after the storm: each learner's attempt as the server holds it.
  let sent = 0;
  let lost = 0;
  let inUngraded = 0;
  let heldSaved = 0;
  const examples: string[] = [];
  await pool(
    taken.map((t, i) => ({ t, learner: learners[i] })),
    8,
    async ({ t, learner }) => {
      if (!t.attemptId || !t.sent) return;
      const detail = await call<AttemptDetail>(
        gateway,
        'GET',
        `/api/attempts/${encodeURIComponent(t.attemptId)}`,
        learner.token,
      ).catch(() => null);
      const check = lostAnswers(t, detail);
      sent += check.sent;
      lost += check.lost;
      heldSaved += check.heldSaved;
      if (!t.graded) inUngraded += check.lost;
      examples.push(...check.examples.slice(0, Math.max(0, 3 - examples.length)));
    },
  );
  const errorCount = Object.values(recorder.errors).reduce((sum, n) => sum + n, 0);
  return {
    learners: learners.length,
    questions: EXAM_QUESTIONS.length,
    arrangeSeconds: round(arrangeSeconds),
    stormSeconds: round(stormSeconds),
    windows,
    card: timing(recorder.times.card, recorder.failed.card),
    start: timing(recorder.times.start, recorder.failed.start),
    save: saveRoute ? timing(recorder.times.save, recorder.failed.save) : null,
    saveRoute: saveRoute ? `${saveRoute.method} ${saveRoute.path}` : null,
    submit: timing(recorder.times.submit, recorder.failed.submit),
    errors: recorder.errors,
    errorCount,
    requests,
    notStarted: taken.filter((t) => !t.attemptId).length,
    notGraded: taken.filter((t) => !t.graded).length,
    lost: { answers: lost, sent, inUngraded, heldSaved, examples },
    probes: probeLines,
  };
}

/* ------------------------------------------------------------------------------ the figures */

const percentiles = (t: Timing) =>
  `p50 ${t.p50} ms, p95 ${t.p95} ms, p99 ${t.p99} ms, max ${t.max} ms of ${t.count} (${t.failed} failed, counted too)`;
/** A time figure is met when its p95 is within the target and some of its requests were answered at all. */
const timeMet = (t: Timing, limit: number) => t.p95 <= limit && t.count > t.failed;

/** The storm's rows of the bench's table, each against BUDGETS.md's target. */
export function examStormFigures(r: ExamStormResult, figures: Figure[]): void {
  const T = EXAM_STORM_TARGETS;
  const name = `exam storm (${r.learners.toLocaleString('en')} learners, ${r.questions} questions)`;
  figures.push(
    {
      name: `${name}: quiz start (POST /api/attempts), p95`,
      value: r.start.p95,
      unit: 'ms',
      budget: `≤ ${T.startP95.toLocaleString('en')} ms`,
      limit: T.startP95,
      met: timeMet(r.start, T.startP95),
      note: `${percentiles(r.start)}; starts over ${r.windows.startSpread} s; the quiz card just before (GET /api/attempts/quiz/{id}): ${percentiles(r.card)}`,
    },
    r.save
      ? {
          name: `${name}: answer save (${r.saveRoute}), p95`,
          value: r.save.p95,
          unit: 'ms',
          budget: `≤ ${T.saveP95} ms`,
          limit: T.saveP95,
          met: timeMet(r.save, T.saveP95),
          note: percentiles(r.save),
        }
      : {
          name: `${name}: answer save, p95`,
          value: NaN,
          unit: 'ms',
          budget: `≤ ${T.saveP95} ms`,
          note: 'not measured: BENCH_EXAM_SAVE=none gives the answers without a request',
        },
    {
      name: `${name}: submit (POST /api/attempts/{id}/submit), p95`,
      value: r.submit.p95,
      unit: 'ms',
      budget: `≤ ${T.submitP95.toLocaleString('en')} ms`,
      limit: T.submitP95,
      met: timeMet(r.submit, T.submitP95),
      note: `${percentiles(r.submit)}; submits over ${r.windows.submitSpread} s after attempts of ${r.windows.attempt} s on average (20 minutes compressed)`,
    },
    {
      name: `${name}: errors`,
      value: r.errorCount,
      unit: 'requests',
      budget: '0',
      limit: T.errors,
      met: r.errorCount === T.errors,
      note: `${r.requests} requests in ${r.stormSeconds} s; ${r.notStarted} learners never started, ${r.notGraded} never graded (after 3 tries each, as a person retries); ${
        Object.entries(r.errors)
          .sort((a, b) => b[1] - a[1])
          .map(([key, n]) => `${key}: ${n}`)
          .join('; ') || 'none'
      }`,
    },
    {
      name: `${name}: answers lost`,
      value: r.lost.answers,
      unit: 'answers',
      budget: '0',
      limit: T.lost,
      met: r.lost.answers === T.lost && r.lost.sent > 0,
      note: `${r.lost.sent} answers sent, each compared with the attempt read back (graded: the engine's words and verdict; still open: its saved answers, ${r.lost.heldSaved} held so); lost: ${r.lost.inUngraded} in attempts whose submit was refused every time, ${r.lost.answers - r.lost.inUngraded} in graded attempts${r.lost.examples.length ? `; e.g. ${r.lost.examples.join('; ')}` : ''}`,
    },
    ...Object.entries(r.probes).map(([probe, line]) => ({
      name: `${name}: ${probe}`,
      value: r.requests,
      unit: 'requests',
      note: line,
    })),
  );
}

/** Learners in the bench's storm: BENCH_EXAM_LEARNERS, else 1,000 (100 with BENCH_QUICK=1). */
export const examLearners = (): number => Number(process.env.BENCH_EXAM_LEARNERS ?? (QUICK ? 100 : 1000));

/**
 * `npm run bench -- examstorm`: the portal on the launcher's store with nothing else running in it,
 * the storm through its gateway, the CPU split by process and the store operations per request of
 * the storm's window beside the figures. The whole result also goes to the JSON.
 */
export async function examStormPart(
  store: { url: string; pid?: number },
  redisUrl: string,
  figures: Figure[],
): Promise<ExamStormResult> {
  const bench = await startBenchStack(store.url, redisUrl);
  try {
    // The launcher's store started by someone else: its FerretDB is the process listening on its port.
    const storePid = store.pid ?? pidListeningOn(Number(new URL(store.url).port || 27017));
    const cpu = stackCpuParts(bench.stack, storePid);
    const result = await runExamStorm({
      gatewayUrl: bench.gateway,
      learners: examLearners(),
      probes: {
        'CPU split by process': async () => {
          const before = cpu();
          return async (requests) =>
            `${cpuSplitNote(before, cpu(), requests)}${storePid ? '' : ' (the store’s FerretDB not found)'}; the store serves whatever else runs on this machine too`;
        },
        'store operations per request': async () => {
          const before = await storeCounts(bench.stack);
          return async () => storeOpsSplit(before, await storeCounts(bench.stack), 1);
        },
      },
      log: (line) => console.log(line),
    });
    examStormFigures(result, figures);
    return result;
  } finally {
    await bench.stop();
  }
}
