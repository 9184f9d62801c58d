import {
  ASSIGNMENT_MSG,
  MSG,
  dayOf,
  type Assignment,
  type AssignmentPerson,
  type AuditEvent,
  type AuthResponse,
  type MyAssignment,
  type Page,
  type StartedAttempt,
} from '@portal/contracts';
import { clock, DAY_MS } from '@portal/service-kit';
import { api } from '@portal/devstack/testing';
import { patchUser } from '@portal/svc-auth/testing';
import { seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

let bed: ProgressTestBed;
let seeded: SeededCourse;
beforeAll(async () => {
  bed = await startProgress();
  seeded = await seedQuizCourse(bed);
});
afterAll(() => bed.close());
afterEach(() => clock.reset());

type Answer<T> = T & { message?: string; field?: string };
const call = <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<Answer<T>>(bed.progress.url, method, path, { token, body });
const dayPlus = (days: number) => dayOf(new Date(clock.now().getTime() + days * DAY_MS));
const curator = () => bed.as.CURATOR.token;
const uniqueDepartment = () => `Склад ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Moves a person to a department through the directory, as an administrator does. */
async function moveTo(person: AuthResponse, department: string): Promise<void> {
  const { status } = await patchUser(bed.auth, bed.as.ADMIN.token, person.user.id, {
    fullName: person.user.fullName,
    email: person.user.email,
    role: person.user.role,
    department,
  });
  expect(status).toBe(200);
}

const assign = (body: Record<string, unknown>, token = curator()) =>
  call<Assignment>('POST', '/api/assignments', token, {
    courseId: seeded.course.id,
    dueDate: dayPlus(10),
    ...body,
  });

async function mine(person: AuthResponse, courseId = seeded.course.id): Promise<MyAssignment[]> {
  const answer = await call<Page<MyAssignment>>('GET', `/api/assignments/my?courseId=${courseId}`, person.token);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

/** Completes the text lesson and passes the quiz (which completes its lesson), as the learner does in study mode. */
async function completeCourse(person: AuthResponse, s: SeededCourse = seeded): Promise<void> {
  const done = await call('POST', `/api/progress/lesson/${s.textLessonId}/complete`, person.token, { courseId: s.course.id });
  expect(done.status).toBeLessThan(300);
  const started = await call<StartedAttempt>('POST', '/api/attempts', person.token, {
    quizId: s.quiz.id,
    courseId: s.course.id,
    lessonId: s.quizLessonId,
  });
  const answers = started.body.questions.map((q) =>
    q.type === 'single_choice'
      ? { questionId: q.id, answer: q.options.indexOf('28'), timeSpent: 5 }
      : q.type === 'true_false'
        ? { questionId: q.id, answer: 'true', timeSpent: 5 }
        : { questionId: q.id, answer: 'Трудовой кодекс', timeSpent: 5 },
  );
  const submitted = await call('POST', `/api/attempts/${started.body.attempt.id}/submit`, person.token, { answers });
  expect(submitted.body.status).toBe('passed');
}

async function auditEvents(entityId: string): Promise<AuditEvent[]> {
  await bed.progress.ctx.audit.flush();
  const jobs = await bed.progress.ctx.audit.queue.getJobs(['waiting', 'delayed', 'active', 'completed']);
  return jobs.map((j) => j.data as AuditEvent).filter((e) => e.entityId === entityId);
}

describe('who may assign', () => {
  it('401 without a token; 403 for learners and the manager, and nothing is stored', async () => {
    expect((await call('POST', '/api/assignments', undefined, {})).status).toBe(401);
    for (const role of ['CANDIDATE', 'CLIENT', 'MANAGER'] as const) {
      const refused = await assign({ audience: { kind: 'all' } }, bed.as[role].token);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(MSG.forbidden);
    }
    expect(await bed.store.assignments.countDocuments({ courseId: seeded.course.id, audienceKind: 'all' })).toBe(0);
  });

  it('400 in Russian for a bad audience, a past due date, a bad recurrence and a draft course', async () => {
    const noAudience = await assign({ audience: { kind: 'nobody' } });
    expect(noAudience.status).toBe(400);
    expect(noAudience.body.message).toBe(ASSIGNMENT_MSG.audienceInvalid);
    const noPeople = await assign({ audience: { kind: 'users', userIds: [] } });
    expect(noPeople.body.message).toBe(ASSIGNMENT_MSG.usersRequired);
    const staffRole = await assign({ audience: { kind: 'role', role: 'ADMIN' } });
    expect(staffRole.body.message).toBe(ASSIGNMENT_MSG.roleNotLearner);
    const past = await assign({ audience: { kind: 'all' }, dueDate: dayPlus(-1) });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(ASSIGNMENT_MSG.dueDatePast);
    const badDate = await assign({ audience: { kind: 'all' }, dueDate: '31.12.2030' });
    expect(badDate.body.message).toBe(ASSIGNMENT_MSG.dueDateInvalid);
    const recurrence = await assign({ audience: { kind: 'all' }, recurrenceMonths: 0 });
    expect(recurrence.body.message).toBe(ASSIGNMENT_MSG.recurrenceInvalid);
    const draft = await api<{ id: string }>(bed.content.url, 'POST', '/api/courses', {
      token: curator(),
      body: { title: 'Черновик', description: 'Ещё не готов' },
    });
    const unpublished = await assign({ audience: { kind: 'all' }, courseId: draft.body.id });
    expect(unpublished.status).toBe(400);
    expect(unpublished.body.message).toBe(ASSIGNMENT_MSG.courseNotPublished);
    expect(await bed.store.assignments.countDocuments({ courseId: draft.body.id })).toBe(0);
  });

  it('a curator cannot change another curator’s assignment; an admin can; every change is audited', async () => {
    const made = await assign({ audience: { kind: 'role', role: 'CLIENT' }, message: 'Пройдите до конца месяца' });
    expect(made.status).toBe(201);
    const other = await bed.learner('MANAGER');
    const { userWithRole } = await import('@portal/svc-auth/testing');
    const peer = await userWithRole(bed.auth, 'CURATOR');
    const body = { audience: { kind: 'role', role: 'CLIENT' }, dueDate: dayPlus(20) };
    const refused = await call('PATCH', `/api/assignments/${made.body.id}`, peer.token, body);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(ASSIGNMENT_MSG.notYours);
    expect((await call('PATCH', `/api/assignments/${made.body.id}`, other.token, body)).status).toBe(403);
    const edited = await call<Assignment>('PATCH', `/api/assignments/${made.body.id}`, bed.as.ADMIN.token, body);
    expect(edited.status).toBe(200);
    expect(edited.body.dueDate).toBe(dayPlus(20));
    expect((await call('GET', '/api/assignments/64b7f0c2a1b2c3d4e5f60718', curator())).status).toBe(404);
    const events = await auditEvents(made.body.id);
    expect(events.map((e) => e.action).sort()).toEqual(['create', 'update']);
    expect(events.find((e) => e.action === 'create')?.details).toContain('Роль «Клиент»');
  });
});

describe('a department assignment and each person’s status', () => {
  it('reaches the department’s people, and a person who joins it later; others never see it', async () => {
    const department = uniqueDepartment();
    const early = await bed.learner('CANDIDATE', 'Ранний Сотрудник');
    const later = await bed.learner('CLIENT', 'Поздний Сотрудник');
    await moveTo(early, department);
    const made = await assign({ audience: { kind: 'department', department } });
    expect(made.status).toBe(201);
    const [seen] = await mine(early);
    expect(seen).toMatchObject({ assignmentId: made.body.id, status: 'not_started', daysLeft: 10, dueDate: dayPlus(10) });
    expect((await mine(later)).find((a) => a.assignmentId === made.body.id)).toBeUndefined();
    await moveTo(later, department);
    expect((await mine(later)).find((a) => a.assignmentId === made.body.id)).toMatchObject({ status: 'not_started' });

    const people = await call<Page<AssignmentPerson>>('GET', `/api/assignments/${made.body.id}/people`, bed.as.MANAGER.token);
    expect(people.status).toBe(200);
    expect(people.body.total).toBe(2);
    expect(people.body.data.map((p) => p.fullName).sort()).toEqual(['Поздний Сотрудник', 'Ранний Сотрудник']);
    expect((await call('GET', `/api/assignments/${made.body.id}/people`, early.token)).status).toBe(403);
    expect((await call('GET', `/api/assignments/${made.body.id}/people?limit=1000`, curator())).status).toBe(400);
  });

  it('goes не начат → в процессе → завершён before the due date (date kept); the one who did nothing is просрочен after it', async () => {
    const department = uniqueDepartment();
    const diligent = await bed.learner();
    const idle = await bed.learner();
    await moveTo(diligent, department);
    await moveTo(idle, department);
    const made = await assign({ audience: { kind: 'department', department }, dueDate: dayPlus(3) });
    const statusOf = async (p: AuthResponse) => (await mine(p)).find((a) => a.assignmentId === made.body.id)!;

    expect((await statusOf(diligent)).status).toBe('not_started');
    await call('POST', `/api/progress/lesson/${seeded.textLessonId}/complete`, diligent.token, { courseId: seeded.course.id });
    expect((await statusOf(diligent)).status).toBe('in_progress');
    await completeCourse(diligent);
    const done = await statusOf(diligent);
    expect(done.status).toBe('completed');
    expect(done.completedAt).toEqual(expect.any(String));

    clock.advance(5 * DAY_MS);
    expect(await statusOf(diligent)).toMatchObject({ status: 'completed', completedAt: done.completedAt });
    expect(await statusOf(idle)).toMatchObject({ status: 'overdue', daysLeft: -2 });
  });

  it('completing every lesson without passing the quiz is not завершён', async () => {
    const person = await bed.learner();
    const made = await assign({ audience: { kind: 'users', userIds: [person.user.id] } });
    for (const lessonId of [seeded.textLessonId, seeded.quizLessonId])
      await call('POST', `/api/progress/lesson/${lessonId}/complete`, person.token, { courseId: seeded.course.id });
    expect((await mine(person)).find((a) => a.assignmentId === made.body.id)?.status).toBe('in_progress');
  });
});

describe('extensions', () => {
  it('extends one person’s due date, then everyone’s; a person outside the audience is 404', async () => {
    const one = await bed.learner();
    const two = await bed.learner();
    const outsider = await bed.learner();
    const made = await assign({ audience: { kind: 'users', userIds: [one.user.id, two.user.id] }, dueDate: dayPlus(2) });
    const id = made.body.id;
    clock.advance(3 * DAY_MS);
    expect((await mine(one)).find((a) => a.assignmentId === id)?.status).toBe('overdue');

    const personal = await call('POST', `/api/assignments/${id}/extend`, curator(), { dueDate: dayPlus(7), userId: one.user.id });
    expect(personal.status).toBe(200);
    expect((await mine(one)).find((a) => a.assignmentId === id)).toMatchObject({ status: 'not_started', daysLeft: 7 });
    expect((await mine(two)).find((a) => a.assignmentId === id)?.status).toBe('overdue');

    const notThere = await call('POST', `/api/assignments/${id}/extend`, curator(), {
      dueDate: dayPlus(7),
      userId: outsider.user.id,
    });
    expect(notThere.status).toBe(404);
    expect(notThere.body.message).toBe(ASSIGNMENT_MSG.personNotInAudience);
    expect(await bed.store.assignmentExtensions.countDocuments({ assignmentId: id })).toBe(1);

    const all = await call<Assignment>('POST', `/api/assignments/${id}/extend`, curator(), { dueDate: dayPlus(14) });
    expect(all.body.dueDate).toBe(dayPlus(14));
    expect((await mine(two)).find((a) => a.assignmentId === id)).toMatchObject({ status: 'not_started', daysLeft: 14 });
    expect((await mine(one)).find((a) => a.assignmentId === id)?.daysLeft).toBe(14);
    expect((await auditEvents(id)).filter((e) => e.details.includes('продлён'))).toHaveLength(2);
  });
});

describe('recurrence', () => {
  it('a completed recurring assignment is due again N months after the completion, and просрочен once that day passes', async () => {
    const person = await bed.learner();
    const course = await seedQuizCourse(bed);
    const made = await call<Assignment>('POST', '/api/assignments', curator(), {
      courseId: course.course.id,
      audience: { kind: 'users', userIds: [person.user.id] },
      dueDate: dayPlus(5),
      recurrenceMonths: 12,
    });
    await completeCourse(person, course);
    const [done] = await mine(person, course.course.id);
    expect(done.status).toBe('completed');
    expect(done.dueDate > dayPlus(360)).toBe(true);
    expect(done.dueDate <= dayPlus(366)).toBe(true);

    clock.advance(367 * DAY_MS);
    const [again] = await mine(person, course.course.id);
    expect(again).toMatchObject({ assignmentId: made.body.id, status: 'overdue', dueDate: done.dueDate });
  });
});

describe('lists', () => {
  it('the learner’s list is theirs alone and paged; staff list every assignment, paged', async () => {
    const person = await bed.learner();
    await assign({ audience: { kind: 'users', userIds: [person.user.id] }, dueDate: dayPlus(9) });
    await assign({ audience: { kind: 'users', userIds: [person.user.id] }, dueDate: dayPlus(4) });
    const page = await call<Page<MyAssignment>>('GET', '/api/assignments/my?limit=1', person.token);
    expect(page.body).toMatchObject({ total: expect.any(Number), limit: 1 });
    expect(page.body.data).toHaveLength(1);
    const own = await mine(person);
    const days = own.map((a) => a.dueDate);
    expect(days).toEqual([...days].sort());
    expect((await call('GET', '/api/assignments/my', curator())).status).toBe(403);
    expect((await call('GET', '/api/assignments', person.token)).status).toBe(403);
    const staff = await call<Page<Assignment>>('GET', '/api/assignments?limit=2', bed.as.MANAGER.token);
    expect(staff.status).toBe(200);
    expect(staff.body.data).toHaveLength(2);
  });
});

describe('identical assignments do not multiply', () => {
  it('20 parallel identical assignments give one: one 201, the rest 200 with it; the learner lists the course once', async () => {
    const learner = await bed.learner('CLIENT', 'Дубль Дублев');
    const other = await bed.learner('CLIENT', 'Второй Дублев');
    const body = { audience: { kind: 'users', userIds: [learner.user.id, other.user.id] }, dueDate: dayPlus(40) };
    const answers = await Promise.all(Array.from({ length: 20 }, () => assign(body)));
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(19).fill(200), 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    // Sequential repeats, the people in another order, and another curator's are the same assignment.
    const again = await assign({ ...body, audience: { kind: 'users', userIds: [other.user.id, learner.user.id] } });
    expect([again.status, again.body.id]).toEqual([200, answers[0].body.id]);
    expect((await assign(body, bed.as.ADMIN.token)).body.id).toBe(answers[0].body.id);
    expect((await mine(learner)).filter((a) => a.dueDate === dayPlus(40))).toHaveLength(1);
    expect(await bed.store.assignments.countDocuments({ audienceUserIds: learner.user.id })).toBe(1);
    // Another due day is another assignment.
    expect((await assign({ ...body, dueDate: dayPlus(41) })).status).toBe(201);
  });

  it('honours Idempotency-Key: a retry gets the first answer and creates nothing; another request under the key is 422, a bad key 400', async () => {
    const learner = await bed.learner('CLIENT', 'Ключ Повторов');
    const withKey = (key: string, body: Record<string, unknown>, token = curator()) =>
      api<Answer<Assignment>>(bed.progress.url, 'POST', '/api/assignments', {
        token,
        body: { courseId: seeded.course.id, dueDate: dayPlus(50), ...body },
        headers: { 'Idempotency-Key': key },
      });
    const body = { audience: { kind: 'users', userIds: [learner.user.id] } };
    const key = `assign-${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => withKey(key, body)));
    const first = answers.find((a) => !a.headers.get('idempotent-replayed'))!;
    expect(answers.map((r) => [r.status, r.body.id, r.headers.get('idempotent-replayed')]).sort()).toEqual([
      [201, first.body.id, null],
      ...Array(4).fill([201, first.body.id, 'true']),
    ]);
    const changed = await withKey(key, { ...body, dueDate: dayPlus(51) });
    expect(changed).toMatchObject({ status: 422, body: { message: MSG.idempotencyKeyReused } });
    const bad = await withKey('a key with spaces', body);
    expect(bad).toMatchObject({ status: 400, body: { message: MSG.idempotencyKeyInvalid } });
    expect(await bed.store.assignments.countDocuments({ audienceUserIds: learner.user.id })).toBe(1);
    // A key is the person's own: another curator's request under it runs (and finds the same assignment).
    const admin = await withKey(key, body, bed.as.ADMIN.token);
    expect([admin.status, admin.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });
});
