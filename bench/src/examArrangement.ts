import { randomBytes } from 'node:crypto';
import { CONSENT_DOCUMENT, MAX_ASSIGNED_USERS, dayOf, type AuthResponse, type NotificationPage } from '@portal/contracts';
import { call, pool } from './portal';
import { EXAM_QUESTIONS, examQuiz } from './examQuiz';
import { sleep } from '@portal/devstack/util';

/* ------------------------------------------------------------------------------ arrangement */

export interface Learner {
  token: string;
  userId: string;
}
export interface Exam {
  courseId: string;
  lessonId: string;
  quizId: string;
}

/** A published course with one module and one lesson holding the quiz, built through the gateway as an author would. */
export async function buildExam(gateway: string, admin: string): Promise<Exam> {
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
export async function registerLearners(gateway: string, count: number, log: (line: string) => void): Promise<Learner[]> {
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
 * a call), then, unless `settle` is false, a wait until the «назначен» notifications have reached
 * them: that job goes through the whole audience in the background and must not run beside the storm.
 */
export async function assignCourse(
  gateway: string,
  admin: string,
  exam: Exam,
  learners: Learner[],
  log: (line: string) => void,
  { settle = true }: { settle?: boolean } = {},
) {
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
  if (!settle) return;
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
export async function auditSettled(gateway: string, admin: string, log: (line: string) => void) {
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
