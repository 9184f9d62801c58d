import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  dayOf,
  type Assignment,
  type AuthResponse,
  type NotificationKind,
  type NotificationPage,
  type User,
} from '@portal/contracts';
import { DAY_MS, clock, createRedis, type ScheduledJob } from '@portal/service-kit';
import { api } from '@portal/devstack/testing';
import { startSmtpCatcher, type SmtpCatcher } from '@portal/devstack/smtp';
import { waitFor } from '@portal/devstack/util';
import { reminderDeps } from '../app';
import { runReminders, shiftDay } from '../commands/reminders';
import { seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../testing';
import { REMINDERS_QUEUE, startReminders } from './reminders';

let smtp: SmtpCatcher;
let bed: ProgressTestBed;
let seeded: SeededCourse;
const connections: Redis[] = [];
const replicas: ScheduledJob[] = [];

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  bed = await startProgress({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://portal.example.ru' });
  seeded = await seedQuizCourse(bed);
});
afterAll(async () => {
  clock.reset();
  for (const r of replicas) await r.close();
  for (const c of connections) c.disconnect();
  await bed.close();
  await smtp.close();
});

/** A replica's reminders (the scheduler every second here; hourly in the service), on its own Redis connection. */
function replica(): ScheduledJob {
  const connection = createRedis(bed.progress.ctx.config.REDIS_URL, bed.progress.ctx.logger);
  connections.push(connection);
  const reminders = startReminders(connection, reminderDeps(bed.progress.ctx), bed.progress.ctx.logger, {
    cron: '* * * * * *',
    prefix: bed.progress.ctx.config.QUEUE_PREFIX,
  });
  replicas.push(reminders);
  return reminders;
}

async function moveTo(person: AuthResponse, department: string): Promise<void> {
  // Based on the person as the directory reads them now: a person may be moved more than once.
  const read = await api<User>(bed.auth.url, 'GET', `/api/users/${person.user.id}`, { token: bed.as.ADMIN.token });
  const { status } = await api(bed.auth.url, 'PATCH', `/api/users/${person.user.id}`, {
    token: bed.as.ADMIN.token,
    body: {
      fullName: person.user.fullName,
      email: person.user.email,
      role: person.user.role,
      department,
      version: read.body.version,
    },
  });
  expect(status).toBe(200);
}

const kindsOf = async (person: AuthResponse): Promise<NotificationKind[]> => {
  const answer = await api<NotificationPage>(bed.progress.url, 'GET', '/api/notifications?limit=50', { token: person.token });
  expect(answer.status).toBe(200);
  return answer.body.data.map((n) => n.kind).sort();
};
const mailSubjects = (email: string) =>
  smtp.mails
    .filter((m) => m.to.includes(email))
    .map((m) => m.subject)
    .sort();

describe('reminders of an assignment', () => {
  it('tell each person once of the assignment, three days before, on the day and when overdue, and the curator once, however many replicas run', async () => {
    const department = `Склад ${Date.now().toString(36)}`;
    const late = await bed.learner('CANDIDATE', 'Сидоров Пётр Петрович');
    const done = await bed.learner('CLIENT', 'Петрова Мария Ивановна');
    await moveTo(late, department);
    await moveTo(done, department);
    const [first, second] = [replica(), replica()];
    await Promise.all([first.scheduled, second.scheduled]);
    const queue = new Queue(REMINDERS_QUEUE, { connection: connections[0], prefix: bed.progress.ctx.config.QUEUE_PREFIX });
    expect(await queue.getJobSchedulersCount()).toBe(1);
    await queue.close();

    // 1. Assigned ten days ahead: both people are told (in the bell and by mail, in Russian, with the portal's link).
    const due = dayOf(new Date(clock.now().getTime() + 10 * DAY_MS));
    const created = await api<Assignment>(bed.progress.url, 'POST', '/api/assignments', {
      token: bed.as.CURATOR.token,
      body: {
        courseId: seeded.course.id,
        audience: { kind: 'department', department },
        dueDate: due,
        message: 'Обязательно для всех',
      },
    });
    expect(created.status).toBe(201);
    const title = seeded.course.title;
    const [assignedMail] = await smtp.mailsTo(late.user.email, 1, 15_000);
    expect(assignedMail.subject).toBe(`Вам назначен курс «${title}»`);
    expect(assignedMail.text).toContain(`Пройдите его до ${due.split('-').reverse().join('.')} включительно.\n\n`);
    expect(assignedMail.text).toContain(`Сообщение куратора (${bed.as.CURATOR.user.fullName}):\n«Обязательно для всех»`);
    expect(assignedMail.text).toContain(`https://portal.example.ru/student/${seeded.course.id}`);
    await smtp.mailsTo(done.user.email, 1, 15_000);
    expect(await kindsOf(late)).toEqual(['assigned']);

    // Мария completes the course: she is reminded of nothing more.
    for (const lessonId of [seeded.textLessonId]) {
      const r = await api(bed.progress.url, 'POST', `/api/progress/lesson/${lessonId}/complete`, {
        token: done.token,
        body: { courseId: seeded.course.id },
      });
      expect(r.status).toBeLessThan(300);
    }
    await bed.store.assignments.updateOne(
      { _id: created.body.id },
      { $set: { lessonIds: [seeded.textLessonId], quizLessonIds: [] } },
    );

    // 2. Three days before the due day; 3. on it; 4. the day after.
    const steps: Array<[number, NotificationKind, string]> = [
      [-3, 'due_soon', `Через 3 дня срок курса «${title}»`],
      [0, 'due_today', `Сегодня последний день курса «${title}»`],
      [1, 'overdue', `Курс «${title}» просрочен`],
    ];
    let mails = 1;
    for (const [shift, kind, subject] of steps) {
      clock.set(new Date(Date.parse(`${shiftDay(due, shift)}T09:00:00+03:00`)));
      mails += 1;
      const got = await smtp.mailsTo(late.user.email, mails, 15_000);
      expect(got.map((m) => m.subject)).toContain(subject);
      await waitFor(async () => (await kindsOf(late)).includes(kind), `${kind} in the bell`, 10_000);
    }
    const curatorMails = await smtp.mailsTo(bed.as.CURATOR.user.email, 1, 15_000);
    expect(curatorMails[0].subject).toBe(`Просрочено назначение курса «${title}»`);
    expect(curatorMails[0].text).toContain('не завершили: 1 чел.');
    expect(curatorMails[0].text).toContain(`https://portal.example.ru/assignments/${created.body.id}`);

    // The same day run again by both replicas at once, and a few more scheduled runs: nothing new.
    const deps = reminderDeps(bed.progress.ctx);
    const again = await Promise.all([runReminders(deps, dayOf(clock.now())), runReminders(deps, dayOf(clock.now()))]);
    expect(again.map((r) => r.overdue + r.summaries + r.assigned)).toEqual([0, 0]);
    await new Promise((resolve) => setTimeout(resolve, 2_500));

    expect(await kindsOf(late)).toEqual(['assigned', 'due_soon', 'due_today', 'overdue']);
    expect(await kindsOf(done)).toEqual(['assigned']);
    expect(mailSubjects(late.user.email)).toEqual(
      [`Вам назначен курс «${title}»`, ...steps.map(([, , subject]) => subject)].sort(),
    );
    expect(mailSubjects(done.user.email)).toEqual([`Вам назначен курс «${title}»`]);
    expect(mailSubjects(bed.as.CURATOR.user.email)).toEqual([`Просрочено назначение курса «${title}»`]);
    const curatorBell = await api<NotificationPage>(bed.progress.url, 'GET', '/api/notifications', {
      token: bed.as.CURATOR.token,
    });
    expect(curatorBell.body.data.filter((n) => n.kind === 'overdue_summary')).toHaveLength(1);
  });

  it('follow a personal extension: the person extended is reminded on their own day, the others on the common one', async () => {
    clock.reset();
    const department = `Цех ${Date.now().toString(36)}`;
    const common = await bed.learner('CANDIDATE', 'Орлова Ольга Олеговна');
    const extended = await bed.learner('CANDIDATE', 'Зайцев Захар Захарович');
    await moveTo(common, department);
    await moveTo(extended, department);
    const due = dayOf(new Date(clock.now().getTime() + 5 * DAY_MS));
    const created = await api<Assignment>(bed.progress.url, 'POST', '/api/assignments', {
      token: bed.as.CURATOR.token,
      body: { courseId: seeded.course.id, audience: { kind: 'department', department }, dueDate: due },
    });
    expect(created.status).toBe(201);
    const own = shiftDay(due, 4);
    const extension = await api(bed.progress.url, 'POST', `/api/assignments/${created.body.id}/extend`, {
      token: bed.as.CURATOR.token,
      body: { dueDate: own, userId: extended.user.id },
    });
    expect(extension.status).toBe(200);
    const deps = reminderDeps(bed.progress.ctx);
    const dueToday = async (person: AuthResponse) => (await kindsOf(person)).filter((k) => k === 'due_today').length;

    clock.set(new Date(Date.parse(`${due}T10:00:00+03:00`)));
    await runReminders(deps, due);
    expect(await dueToday(common)).toBe(1);
    expect(await dueToday(extended)).toBe(0);

    clock.set(new Date(Date.parse(`${own}T10:00:00+03:00`)));
    await runReminders(deps, own);
    expect(await dueToday(extended)).toBe(1);
    expect(await dueToday(common)).toBe(1);
    const [mail] = (await smtp.mailsTo(extended.user.email, 2, 15_000)).filter((m) => m.subject.startsWith('Сегодня'));
    expect(mail.text).toContain(`Срок — ${own.split('-').reverse().join('.')}`);
  });

  it('remind a recurring assignment again before the next due day that follows a completion', async () => {
    clock.reset();
    const person = await bed.learner('CLIENT', 'Ершова Елена Евгеньевна');
    const created = await api<Assignment>(bed.progress.url, 'POST', '/api/assignments', {
      token: bed.as.CURATOR.token,
      body: {
        courseId: seeded.course.id,
        audience: { kind: 'users', userIds: [person.user.id] },
        dueDate: dayOf(new Date(clock.now().getTime() + 20 * DAY_MS)),
        recurrenceMonths: 12,
      },
    });
    expect(created.status).toBe(201);
    await bed.store.assignments.updateOne(
      { _id: created.body.id },
      { $set: { lessonIds: [seeded.textLessonId], quizLessonIds: [] } },
    );
    const completed = await api(bed.progress.url, 'POST', `/api/progress/lesson/${seeded.textLessonId}/complete`, {
      token: person.token,
      body: { courseId: seeded.course.id },
    });
    expect(completed.status).toBeLessThan(300);
    // Completed today: due again a year later (by the Moscow calendar, as the status counts it).
    const next = `${Number(dayOf(clock.now()).slice(0, 4)) + 1}${dayOf(clock.now()).slice(4)}`;
    const deps = reminderDeps(bed.progress.ctx);
    const kinds = async () => (await kindsOf(person)).filter((k) => k !== 'assigned');

    // Nothing while the completion holds (the first due day passed in between says nothing either).
    const firstDue = shiftDay(dayOf(clock.now()), 21);
    clock.set(new Date(Date.parse(`${firstDue}T10:00:00+03:00`)));
    await runReminders(deps, firstDue);
    expect(await kinds()).toEqual([]);

    for (const [shift, kind] of [
      [-3, 'due_soon'],
      [0, 'due_today'],
      [1, 'overdue'],
    ] as const) {
      const day = shiftDay(next, shift);
      clock.set(new Date(Date.parse(`${day}T10:00:00+03:00`)));
      // Two runs at once (and the replicas' own scheduled ones): told once.
      await Promise.all([runReminders(deps, day), runReminders(deps, day)]);
      expect(await kinds()).toContain(kind);
    }
    expect(await kinds()).toEqual(['due_soon', 'due_today', 'overdue']);
    const subjects = (await smtp.mailsTo(person.user.email, 4, 15_000)).map((m) => m.subject);
    expect(subjects).toContain(`Через 3 дня срок курса «${seeded.course.title}»`);
    expect(subjects).toContain(`Курс «${seeded.course.title}» просрочен`);
  });
});
