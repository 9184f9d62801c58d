import {
  ASSIGNMENT_EXPORT_HEADER,
  ASSIGNMENT_MSG,
  dayOf,
  type Assignment,
  type AssignmentPerson,
  type AssignmentReport,
  type AuthResponse,
  type Page,
  type PersonAssignments,
} from '@portal/contracts';
import { clock, DAY_MS } from '@portal/service-kit';
import { download, readCsv, readXlsx } from '@portal/devstack/exports';
import { api } from '@portal/devstack/testing';
import { seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

let bed: ProgressTestBed;
let seeded: SeededCourse;
let assignment: Assignment;
const people: Record<'done' | 'started' | 'idle', AuthResponse> = {} as never;

const call = <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<T & { message?: string }>(bed.progress.url, method, path, { token, body });
const complete = (person: AuthResponse, lessonId: string) =>
  call('POST', `/api/progress/lesson/${lessonId}/complete`, person.token, { courseId: seeded.course.id });

/** The seeded course without its quiz: two lessons to complete. */
beforeAll(async () => {
  bed = await startProgress();
  seeded = await seedQuizCourse(bed);
  const department = `Отдел ${Date.now().toString(36)}`;
  for (const [key, name] of [
    ['done', 'Алексеев Алексей'],
    ['started', 'Борисов Борис'],
    ['idle', 'Васильев Василий'],
  ] as const) {
    const person = await bed.learner('CLIENT', name);
    const moved = await api(bed.auth.url, 'PATCH', `/api/users/${person.user.id}`, {
      token: bed.as.ADMIN.token,
      body: { fullName: name, email: person.user.email, role: 'CLIENT', department, version: person.user.version },
    });
    expect(moved.status).toBe(200);
    people[key] = person;
  }
  const made = await call<Assignment>('POST', '/api/assignments', bed.as.CURATOR.token, {
    courseId: seeded.course.id,
    audience: { kind: 'department', department },
    dueDate: dayOf(new Date(Date.now() + 2 * DAY_MS)),
  });
  assignment = made.body;
  // «done» completes both lessons and passes the quiz; «started» completes one lesson.
  await complete(people.done, seeded.textLessonId);
  await complete(people.done, seeded.quizLessonId);
  const started = await call('POST', '/api/attempts', people.done.token, {
    quizId: seeded.quiz.id,
    courseId: seeded.course.id,
    lessonId: seeded.quizLessonId,
  });
  const answers = started.body.questions.map((q: { id: string; type: string; options: string[] }) => ({
    questionId: q.id,
    answer: q.type === 'single_choice' ? q.options.indexOf('28') : q.type === 'true_false' ? 'true' : 'Трудовой кодекс',
    timeSpent: 5,
  }));
  await call('POST', `/api/attempts/${started.body.attempt.id}/submit`, people.done.token, { answers });
  await complete(people.started, seeded.textLessonId);
});
afterAll(() => bed.close());
afterEach(() => clock.reset());

it('counts each status and the percent completed; after the due date the unfinished ones are просрочен', async () => {
  const before = await call<AssignmentReport>('GET', `/api/assignments/${assignment.id}/report`, bed.as.MANAGER.token);
  expect(before.status).toBe(200);
  expect(before.body).toMatchObject({ assigned: 3, completed: 1, inProgress: 1, notStarted: 1, overdue: 0, percent: 33 });
  expect(before.body.completedByDay).toEqual([{ date: dayOf(new Date()), count: 1 }]);

  clock.advance(3 * DAY_MS);
  const after = await call<AssignmentReport>('GET', `/api/assignments/${assignment.id}/report`, bed.as.CURATOR.token);
  expect(after.body).toMatchObject({ assigned: 3, completed: 1, inProgress: 0, notStarted: 0, overdue: 2, percent: 33 });
  const overdue = await call<Page<AssignmentPerson>>(
    'GET',
    `/api/assignments/${assignment.id}/people?status=overdue&limit=1&page=2`,
    bed.as.CURATOR.token,
  );
  expect(overdue.body.total).toBe(2);
  expect(overdue.body.data).toHaveLength(1);
  expect(overdue.body.data[0].status).toBe('overdue');

  expect((await call('GET', `/api/assignments/${assignment.id}/report`, people.idle.token)).status).toBe(403);
  expect((await call('GET', `/api/assignments/${assignment.id}/people?status=lost`, bed.as.CURATOR.token)).status).toBe(400);
});

it('downloads the people with their status as XLSX (header, widths, dates as dates) and as CSV for Russian Excel', async () => {
  clock.advance(3 * DAY_MS);
  const base = `${bed.progress.url}/api/assignments/${assignment.id}/people/export`;
  const xlsx = await download(`${base}?format=xlsx&tz=Europe/Moscow`, bed.as.MANAGER.token);
  expect(xlsx.status).toBe(200);
  expect(xlsx.headers.get('content-disposition')).toContain('assignment_report.xlsx');
  const sheet = await readXlsx(xlsx.bytes);
  expect(sheet.headerBold).toBe(true);
  expect(sheet.rows[0]).toEqual([...ASSIGNMENT_EXPORT_HEADER]);
  expect(sheet.widths.every((w) => typeof w === 'number' && w > 10)).toBe(true);
  const byName = new Map(sheet.rows.slice(1).map((r) => [r[0], r]));
  expect(byName.size).toBe(3);
  expect(byName.get('Алексеев Алексей')?.[3]).toBe('завершён');
  expect(byName.get('Алексеев Алексей')?.[6]).toBeInstanceOf(Date);
  expect(byName.get('Васильев Василий')?.slice(3, 6)).toEqual(['просрочен', expect.any(Date), -1]);

  const csv = await download(`${base}?format=csv&status=overdue`, bed.as.CURATOR.token);
  const rows = readCsv(csv.bytes);
  expect(rows[0]).toEqual([...ASSIGNMENT_EXPORT_HEADER]);
  expect(
    rows
      .slice(1)
      .map((r) => r[0])
      .sort(),
  ).toEqual(['Борисов Борис', 'Васильев Василий']);
  expect((await download(`${base}?format=pdf`, bed.as.CURATOR.token)).status).toBe(400);
});

it('drills down to one person: their assignments with their status; 404 for someone unknown, 403 for a learner', async () => {
  const answer = await call<PersonAssignments>('GET', `/api/assignments/person/${people.done.user.id}`, bed.as.MANAGER.token);
  expect(answer.status).toBe(200);
  expect(answer.body.person).toMatchObject({ fullName: 'Алексеев Алексей', department: expect.stringMatching(/^Отдел /) });
  expect(answer.body.data.find((a) => a.assignmentId === assignment.id)?.status).toBe('completed');
  const unknown = await call('GET', '/api/assignments/person/64b7f0c2a1b2c3d4e5f60718', bed.as.CURATOR.token);
  expect(unknown.status).toBe(404);
  expect(unknown.body.message).toBe(ASSIGNMENT_MSG.personNotFound);
  expect((await call('GET', `/api/assignments/person/${people.done.user.id}`, people.idle.token)).status).toBe(403);
});

it('shows the curator each person’s certificate for the course once issued', async () => {
  const issued = await call<{ number: string }>('POST', '/api/certificates', people.done.token, { courseId: seeded.course.id });
  expect(issued.status).toBe(201);
  const list = await call<Page<AssignmentPerson>>('GET', `/api/assignments/${assignment.id}/people`, bed.as.CURATOR.token);
  const numbers = Object.fromEntries(list.body.data.map((p) => [p.fullName, p.certificateNumber]));
  expect(numbers).toEqual({ 'Алексеев Алексей': issued.body.number, 'Борисов Борис': null, 'Васильев Василий': null });
});

describe('the staff list’s period filter', () => {
  it('keeps the assignments whose due day falls in the period, both ends inclusive; a wrong period is 400 in Russian', async () => {
    const due = assignment.dueDate;
    const day = (shift: number) => dayOf(new Date(Date.parse(`${due}T12:00:00Z`) + shift * DAY_MS));
    const ids = async (query: string) => {
      const answer = await call<Page<Assignment>>(
        'GET',
        `/api/assignments?courseId=${seeded.course.id}&${query}`,
        bed.as.MANAGER.token,
      );
      expect(answer.status).toBe(200);
      return answer.body.data.map((a) => a.id);
    };
    expect(await ids(`dueFrom=${due}&dueTo=${due}`)).toEqual([assignment.id]);
    expect(await ids(`dueFrom=${day(-5)}`)).toEqual([assignment.id]);
    expect(await ids(`dueTo=${day(-1)}`)).toEqual([]);
    expect(await ids(`dueFrom=${day(1)}&dueTo=${day(30)}`)).toEqual([]);

    const reversed = await call('GET', `/api/assignments?dueFrom=${day(1)}&dueTo=${day(-1)}`, bed.as.MANAGER.token);
    expect(reversed.status).toBe(400);
    expect(reversed.body.message).toBe('Начало периода не может быть позже конца');
    const malformed = await call('GET', '/api/assignments?dueFrom=31.12.2026', bed.as.MANAGER.token);
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('Начало периода — дата в формате ГГГГ-ММ-ДД');
  });
});

it('writes a due day as that day in every zone, in the CSV and as a date in the XLSX (31.12 stays 31.12 in Kamchatka and Moscow)', async () => {
  const day = `${new Date().getUTCFullYear() + 1}-12-31`;
  const yearEnd = await call<Assignment>('POST', '/api/assignments', bed.as.CURATOR.token, {
    courseId: seeded.course.id,
    audience: { kind: 'users', userIds: [people.idle.user.id] },
    dueDate: day,
  });
  expect([yearEnd.status, yearEnd.body.dueDate]).toEqual([201, day]);
  const base = `${bed.progress.url}/api/assignments/${yearEnd.body.id}/people/export`;
  const shown = day.split('-').reverse().join('.');
  for (const tz of ['Asia/Kamchatka', 'Europe/Moscow', 'America/Los_Angeles']) {
    const rows = readCsv((await download(`${base}?format=csv&tz=${tz}`, bed.as.CURATOR.token)).bytes);
    expect([tz, rows[1][0], rows[1][4]]).toEqual([tz, 'Васильев Василий', shown]);
    const sheet = await readXlsx((await download(`${base}?format=xlsx&tz=${tz}`, bed.as.CURATOR.token)).bytes);
    const due = sheet.rows[1][4] as Date;
    expect([tz, due.toISOString(), sheet.formats[4]]).toEqual([tz, `${day}T00:00:00.000Z`, 'dd.mm.yyyy']);
  }
});
