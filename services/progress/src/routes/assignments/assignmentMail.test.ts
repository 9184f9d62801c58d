import type { Redis } from 'ioredis';
import { dayOf, type Assignment } from '@portal/contracts';
import { DAY_MS, clock, createRedis, type ScheduledJob } from '@portal/service-kit';
import { startSmtpCatcher, type SmtpCatcher } from '@portal/devstack/smtp';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { reminderDeps } from '../../app';
import { startReminders } from '../../queues/reminders';
import { seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

// The mail «Вам назначен курс» as a mail program gets it: read raw from a real SMTP server.
let smtp: SmtpCatcher;
let bed: ProgressTestBed;
let seeded: SeededCourse;
let connection: Redis;
let reminders: ScheduledJob;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  bed = await startProgress({
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://portal.example.ru',
    MAIL_FROM: 'noreply@portal.example.ru',
  });
  seeded = await seedQuizCourse(bed, { title: 'Охрана труда' });
  const { config, logger } = bed.progress.ctx;
  connection = createRedis(config.REDIS_URL, logger);
  reminders = startReminders(connection, reminderDeps(bed.progress.ctx), logger, {
    cron: '0 0 1 1 *',
    prefix: config.QUEUE_PREFIX,
  });
  await reminders.scheduled;
}, 60_000);
afterAll(async () => {
  await reminders?.close();
  connection?.disconnect();
  await bed?.close();
  await smtp?.close();
});

/** A header of the raw message (the top-level headers, before the first blank line). */
const header = (raw: string, name: string) => new RegExp(`^${name}: *(.+)$`, 'im').exec(raw.split(/\r?\n\r?\n/)[0])?.[1]?.trim();

it('greets the person, gives the curator’s message its own marked paragraph, is HTML with a plain-text part, from «Учебный портал», and auto-generated', async () => {
  const person = await userWithRole(bed.auth, 'CLIENT', 'Сидоров Пётр Петрович');
  const due = dayOf(new Date(clock.now().getTime() + 10 * DAY_MS));
  const created = await api<Assignment>(bed.progress.url, 'POST', '/api/assignments', {
    token: bed.as.CURATOR.token,
    body: {
      courseId: seeded.course.id,
      audience: { kind: 'users', userIds: [person.user.id] },
      dueDate: due,
      message: 'Пройдите курс до конца года <b>обязательно</b>',
    },
  });
  expect(created.status).toBe(201);

  const [mail] = await smtp.mailsTo(person.user.email, 1, 20_000);
  const dueText = due.split('-').reverse().join('.');
  const curatorName = bed.as.CURATOR.user.fullName;

  // RFC 3834: an out-of-office reply never answers it.
  expect(header(mail.raw, 'Auto-Submitted')).toBe('auto-generated');
  expect(mail.from).toBe('Учебный портал <noreply@portal.example.ru>');
  expect(header(mail.raw, 'Content-Type')).toMatch(/^multipart\/alternative/);
  expect(mail.subject).toBe('Вам назначен курс «Охрана труда»');

  const paragraphs = mail.text.split(/\n\s*\n/).map((p) => p.trim());
  expect(paragraphs[0]).toBe('Здравствуйте, Сидоров Пётр Петрович!');
  expect(paragraphs).toContain(`Пройдите его до ${dueText} включительно.`);
  expect(paragraphs).toContain(`Сообщение куратора (${curatorName}):\n«Пройдите курс до конца года <b>обязательно</b>»`);
  expect(mail.text).toContain(`https://portal.example.ru/student/${seeded.course.id}`);

  expect(mail.html).toMatch(/<p[^>]*>Здравствуйте, Сидоров Пётр Петрович!<\/p>/);
  expect(mail.html).toContain(`Сообщение куратора (${curatorName}):`);
  // The curator's words are quoted as they were typed, never as markup.
  expect(mail.html).toMatch(/<blockquote[^>]*>Пройдите курс до конца года &lt;b&gt;обязательно&lt;\/b&gt;<\/blockquote>/);
  expect(mail.html).toContain(`href="https://portal.example.ru/student/${seeded.course.id}"`);
});
