import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from 'bullmq';
import { CONSENT_DOCUMENT, PRIVACY_MSG, type SubjectRequest } from '@portal/contracts';
import { download } from '@portal/devstack/exports';
import { pdfText } from '@portal/devstack/pdf';
import { api } from '@portal/devstack/testing';
import { createRedis } from '@portal/service-kit';
import { consentModel } from '@portal/svc-auth/models/consent';
import { userWithRole } from '@portal/svc-auth/testing';
import { question, seedQuizCourse } from '@portal/svc-progress/testing';
import { recordModel } from '@portal/svc-audit/models/record';
import { startAuditWorker } from '@portal/svc-audit/queues/worker';
import { aliasOf } from '../../../../gateway/src/privacy';
import { startPortal, type Portal } from '../security/portal';

/*
 * 152-FZ data-subject requests on the whole portal (five services, their store and Redis, the
 * gateway and the audit worker): a person touched by every service is exported completely, then
 * anonymised, after which no collection of any service holds their name, email or phone.
 */

let portal: Portal;
let workers: Worker[] = [];
/** The workers' connections: a Worker closes the connections it made, not the one it was given. */
let connections: Array<ReturnType<typeof createRedis>> = [];
const services = () => [portal.auth, portal.content, portal.progress, portal.crm, portal.audit];
const PHONE = '+7 912 345-67-89';

interface ReadSheet {
  name: string;
  frozen: string | null;
  /** Each cell as text; a date as `datetime:<value>`. */
  rows: string[][];
}

/** An XLSX as openpyxl reads it (Debian python3-openpyxl), as an outside reader would. */
function readWithOpenpyxl(bytes: Buffer): ReadSheet[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'subject-xlsx-'));
  const file = path.join(dir, 'export.xlsx');
  writeFileSync(file, bytes);
  const script = [
    'import json, sys, datetime, openpyxl',
    'book = openpyxl.load_workbook(sys.argv[1])',
    'cell = lambda v: None if v is None else ("datetime:" + str(v) if isinstance(v, datetime.datetime) else str(v))',
    'print(json.dumps([{"name": s.title, "frozen": s.freeze_panes, "rows": [[cell(v) for v in r] for r in s.iter_rows(values_only=True)]} for s in book.worksheets]))',
  ].join('\n');
  try {
    // Debian's interpreter, whose python3-openpyxl the CI installs (a python3 earlier on PATH may lack it).
    return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' })) as ReadSheet[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A learner's answer file, uploaded as the player does (multipart, to the content service). */
async function uploadAnswer(token: string, filename: string, quizId: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('Акт проверки огнетушителей')], { type: 'text/plain' }), filename);
  const res = await fetch(`${portal.content.url}/api/upload/answer?quizId=${quizId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { url: string }).url;
}

/**
 * The victim answers a quiz with a long answer and a file, and a curator of their own (the reviewer,
 * who is forgotten too) grades the long answer: their name is then kept inside the victim's attempt.
 */
async function gradedAttemptWithFile() {
  const seeded = await seedQuizCourse(portal, {
    questions: [
      question({ id: 'la', type: 'long_answer', question: 'Опишите порядок эвакуации', order: 0 }),
      question({ id: 'fu', type: 'file_upload', question: 'Приложите акт', order: 1 }),
    ],
  });
  const { victim } = portal;
  const fileUrl = await uploadAnswer(victim.token, `${victim.user.fullName} — акт.txt`, seeded.quiz.id);
  const call = (method: string, path: string, token: string, body?: unknown) =>
    api<any>(portal.progress.url, method, path, { token, body });
  const started = await call('POST', '/api/attempts', victim.token, {
    quizId: seeded.quiz.id,
    courseId: seeded.course.id,
    lessonId: seeded.quizLessonId,
  });
  expect(started.status).toBe(201);
  const attemptId: string = started.body.attempt.id;
  const submitted = await call('POST', `/api/attempts/${attemptId}/submit`, victim.token, {
    answers: [
      { questionId: 'la', answer: 'Выйти по плану эвакуации', timeSpent: 5 },
      { questionId: 'fu', answer: fileUrl, timeSpent: 5 },
    ],
  });
  expect(submitted.status).toBe(200);
  const reviewer = await userWithRole(portal.auth, 'CURATOR', 'Рита Проверяющая');
  // Answers are graded by the course's own curators: the reviewer is made a co-author.
  const coAuthor = await api(portal.content.url, 'POST', `/api/courses/${seeded.course.id}/authors`, {
    token: portal.as.ADMIN.token,
    body: { userId: reviewer.user.id },
  });
  expect(coAuthor.status).toBeLessThan(300);
  const graded = await call('POST', `/api/reviews/${attemptId}/la`, reviewer.token, { score: 1, comment: 'Верно' });
  expect(graded.status).toBe(200);
  const reviewerNameSeen = async () =>
    (await call('GET', `/api/attempts/${attemptId}`, portal.as.ADMIN.token)).body.questions.find(
      (q: { questionId: string }) => q.questionId === 'la',
    ).review.reviewerName as string;
  expect(await reviewerNameSeen()).toBe(reviewer.user.fullName);
  return { fileUrl, reviewer, reviewerNameSeen };
}

beforeAll(async () => {
  portal = await startPortal();
  // Each test service publishes to a queue of its own: one audit worker each, storing into the audit service.
  const { logger } = portal.audit.ctx;
  const records = recordModel(portal.audit.ctx.store);
  connections = services().map(({ ctx }) => createRedis(ctx.config.REDIS_URL, logger));
  workers = services().map(({ ctx }, i) =>
    startAuditWorker(connections[i], records, logger, { concurrency: 1, prefix: ctx.config.QUEUE_PREFIX }),
  );
}, 120_000);
afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  for (const connection of connections) connection.disconnect();
  await Promise.all([portal.gateway.server.close(), portal.crm.close(), portal.audit.close(), portal.close()]);
});

const gw = <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<T>(portal.gateway.url, method, path, { token, body });

/** Every document of every collection of every service's database, as text. */
async function everythingStored(): Promise<Array<{ where: string; text: string }>> {
  const found: Array<{ where: string; text: string }> = [];
  for (const { ctx } of services()) {
    const db = ctx.store.db!;
    for (const { name } of await db.listCollections().toArray())
      for (const doc of await db.collection(name).find().toArray())
        found.push({ where: `${db.databaseName}.${name}`, text: JSON.stringify(doc) });
  }
  return found;
}

/** Waits until the audit worker has stored every event published so far. */
async function auditDrained(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    let waiting = 0;
    for (const { ctx } of services()) {
      await ctx.audit.flush();
      const counts = await ctx.audit.queue.getJobCounts('waiting', 'active', 'delayed');
      waiting += counts.waiting + counts.active + counts.delayed + ctx.audit.pending;
    }
    if (!waiting) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the audit queues did not drain');
}

it('exports everything about a person, then forgets them everywhere, with an act, keeping their results', async () => {
  const admin = portal.as.ADMIN.token;
  const { victim } = portal;
  // Touched by every service: a consent (auth), an attempt and a lesson (progress), a contact with
  // a phone (crm), and the audit trail of all of it, including an ADMIN reading their card.
  // (The test helpers give every account its consent; this one gives it through the route, audited.)
  await consentModel(portal.auth.ctx.store).deleteMany({ userId: victim.user.id });
  expect((await gw('POST', '/api/consent', victim.token, { version: CONSENT_DOCUMENT.version })).status).toBe(201);
  const contact = await gw('POST', '/api/contacts', portal.as.MANAGER.token, {
    fullName: victim.user.fullName,
    email: victim.user.email,
    phone: PHONE,
    orgId: portal.organizationId,
  });
  expect(contact.status).toBe(201);
  expect((await gw('GET', `/api/users/${victim.user.id}`, admin)).status).toBe(200);
  const { fileUrl, reviewer, reviewerNameSeen } = await gradedAttemptWithFile();
  // A learning program of theirs: their place in it holds their name until they are forgotten.
  const track = await seedQuizCourse(portal);
  const program = await gw('POST', '/api/programs', portal.as.CURATOR.token, {
    title: 'Программа обезличивания',
    stages: [{ title: 'Единственный этап', courseIds: [track.course.id], dueDays: 14 }],
  });
  const programAssignment = await gw('POST', '/api/program-assignments', portal.as.CURATOR.token, {
    programId: program.body.id,
    audience: { kind: 'users', userIds: [victim.user.id] },
  });
  expect(programAssignment.status).toBe(201);
  expect((await gw('GET', '/api/programs/my', victim.token)).body.total).toBe(1);
  // An attempt left unfinished, with an answer saved as they went: that answer is theirs too.
  const open = await api<any>(portal.progress.url, 'POST', '/api/attempts', {
    token: victim.token,
    body: { quizId: track.quiz.id, courseId: track.course.id, lessonId: track.quizLessonId },
  });
  expect(open.status).toBe(201);
  const trueFalse = open.body.questions.find((q: { type: string }) => q.type === 'true_false');
  const saved = await api(portal.progress.url, 'PUT', `/api/attempts/${open.body.attempt.id}/answers`, {
    token: victim.token,
    body: { answers: [{ questionId: trueFalse.id, answer: 'true', timeSpent: 4 }] },
  });
  expect(saved.status).toBe(200);

  // Export: only an ADMIN files and carries it out.
  expect(
    (await gw('POST', '/api/subject-requests', portal.as.MANAGER.token, { userId: victim.user.id, kind: 'export' })).status,
  ).toBe(403);
  const bad = await gw('POST', '/api/subject-requests', admin, { userId: victim.user.id, kind: 'delete' });
  expect([bad.status, bad.body.message]).toEqual([400, PRIVACY_MSG.kindInvalid]);
  const exportRequest = await gw<SubjectRequest>('POST', '/api/subject-requests', admin, {
    userId: victim.user.id,
    kind: 'export',
  });
  expect(exportRequest.status).toBe(201);
  await auditDrained();
  expect((await gw('GET', `/api/subject-requests/${exportRequest.body.id}/export`, portal.as.CURATOR.token)).status).toBe(403);
  const exported = await gw(
    'GET',
    `/api/subject-requests/${exportRequest.body.id}/export?format=json&tz=Asia/Yekaterinburg`,
    admin,
  );
  expect(exported.status).toBe(200);
  // What a person reads: Russian keys and words, dates on their clock, no store internals.
  const data = exported.body['Данные'];
  expect(exported.body['Человек']).toEqual({ ФИО: victim.user.fullName, Email: victim.user.email });
  expect(data['Профиль']).toEqual([
    expect.objectContaining({ Email: victim.user.email, ФИО: victim.user.fullName, Роль: 'Кандидат' }),
  ]);
  expect(data['Согласия']).toEqual([
    expect.objectContaining({ Редакция: CONSENT_DOCUMENT.version, Дано: expect.stringMatching(/^\d\d\.\d\d\.\d{4} \d\d:\d\d$/) }),
  ]);
  expect(data['Попытки квизов']).toHaveLength(3);
  expect(data['Ответы незавершённых попыток']).toEqual([
    expect.objectContaining({ Квиз: track.quiz.title, 'Попытка №': 1, Ответы: expect.stringContaining('true') }),
  ]);
  expect(data['Попытки квизов'].some((a: Record<string, string>) => a['Ответы']?.includes(fileUrl))).toBe(true);
  expect(data['Загруженные файлы']).toEqual([
    expect.objectContaining({ Ссылка: fileUrl, 'Имя файла': `${victim.user.fullName} — акт.txt` }),
  ]);
  expect(data['Пройденные уроки']).toHaveLength(1);
  expect(data['Программы обучения (участие)']).toEqual([
    expect.objectContaining({ ФИО: victim.user.fullName, 'Пройдено этапов': 0, Положение: 'в процессе' }),
  ]);
  expect(data['Контакты организаций']).toEqual([expect.objectContaining({ Телефон: PHONE })]);
  expect(data['Действия человека'].length).toBeGreaterThanOrEqual(3); // the attempt, the lesson, the consent
  expect(data['Действия с его учётной записью']).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ Действие: 'Просмотр', Описание: `Просмотр данных пользователя ${victim.user.email}` }),
    ]),
  );
  const json = JSON.stringify(exported.body);
  for (const internal of ['"_id"', '"userId"', '"eventId"', '"__v"', '"CANDIDATE"', '"approved"', '"anonymise"'])
    expect(json).not.toContain(internal);
  expect(json).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/); // no ISO text in UTC

  // The XLSX as openpyxl (not the library that wrote it) reads it.
  const xlsx = await download(
    `${portal.gateway.url}/api/subject-requests/${exportRequest.body.id}/export?format=xlsx&tz=Europe/Moscow`,
    admin,
  );
  expect(xlsx.status).toBe(200);
  const sheets = readWithOpenpyxl(xlsx.bytes);
  expect(sheets.map((s) => s.name)).toEqual(
    expect.arrayContaining(['Профиль', 'Попытки квизов', 'Контакты организаций', 'Загруженные файлы', 'Ссылки для кандидатов']),
  );
  for (const sheet of sheets) {
    expect({ sheet: sheet.name, frozen: sheet.frozen, header: sheet.rows[0]?.length > 0 }).toEqual({
      sheet: sheet.name,
      frozen: 'A2',
      header: true,
    });
    // Russian headers («Email» as every export of the portal writes it), none a field left unnamed («Прочее: …»).
    const unnamed = sheet.rows[0].filter((header) => !/^([А-ЯЁ]|Email)/.test(header) || header.startsWith('Прочее'));
    expect({ sheet: sheet.name, unnamed }).toEqual({ sheet: sheet.name, unnamed: [] });
  }
  // An empty collection still has its header row.
  expect(sheets.find((s) => s.name === 'Ссылки для кандидатов')?.rows).toEqual([['Записей нет']]);
  const profile = sheets.find((s) => s.name === 'Профиль')!;
  const column = (name: string) => profile.rows[1][profile.rows[0].indexOf(name)];
  expect(column('Роль')).toBe('Кандидат');
  expect(column('Создано')).toMatch(/^datetime:\d{4}-\d\d-\d\d \d\d:\d\d/);

  // And a CSV: one value a line, in Russian, that Excel opens (a BOM, `;`).
  const csv = await download(`${portal.gateway.url}/api/subject-requests/${exportRequest.body.id}/export?format=csv`, admin);
  expect(csv.headers.get('content-type')).toContain('text/csv');
  const csvText = csv.bytes.toString('utf8');
  expect(csvText.startsWith('\uFEFF"Раздел";"Запись";"Поле";"Значение"')).toBe(true);
  expect(csvText).toContain('"Профиль";"1";"Роль";"Кандидат"');
  const listed = await gw('GET', '/api/subject-requests?status=done', admin);
  expect(listed.body.data.map((r: SubjectRequest) => r.id)).toContain(exportRequest.body.id);

  // The reviewer is forgotten first: their name inside the victim's graded answer becomes their alias.
  const forgetReviewer = await gw<SubjectRequest>('POST', '/api/subject-requests', admin, {
    userId: reviewer.user.id,
    kind: 'anonymise',
  });
  await auditDrained();
  const reviewerDone = await gw<SubjectRequest>('POST', `/api/subject-requests/${forgetReviewer.body.id}/anonymise`, admin);
  expect(reviewerDone.status).toBe(200);
  expect(reviewerDone.body.summary).toMatchObject({ 'Обучение: Проверенные ответы других (проверяющий)': 1 });
  expect(await reviewerNameSeen()).toBe(aliasOf(reviewer.user.id));

  // Anonymisation.
  const request = await gw<SubjectRequest>('POST', '/api/subject-requests', admin, { userId: victim.user.id, kind: 'anonymise' });
  const self = await gw('POST', '/api/subject-requests', admin, { userId: portal.as.ADMIN.user.id, kind: 'anonymise' });
  expect([self.status, self.body.message]).toEqual([400, PRIVACY_MSG.selfAnonymise]);
  expect((await gw('POST', `/api/subject-requests/${exportRequest.body.id}/anonymise`, admin)).status).toBe(409);
  await auditDrained();
  const done = await gw<SubjectRequest>('POST', `/api/subject-requests/${request.body.id}/anonymise`, admin);
  expect(done.status).toBe(200);
  const alias = aliasOf(victim.user.id);
  expect(done.body).toMatchObject({ status: 'done', hasAct: true, user: { fullName: alias, email: '' } });
  expect(done.body.summary).toMatchObject({
    'Обучение: Попытки квизов': 3,
    'CRM: Контакты организаций': 1,
    'Курсы и файлы: Файлы ответов': 1,
    'Учётные записи: Профиль': 1,
  });
  expect((await gw('POST', `/api/subject-requests/${request.body.id}/anonymise`, admin)).body.message).toBe(
    PRIVACY_MSG.alreadyDone,
  );

  // The act is kept with the request and names the alias, never the person.
  const act = await download(`${portal.gateway.url}/api/subject-requests/${request.body.id}/act`, admin);
  expect(act.headers.get('content-type')).toBe('application/pdf');
  const actText = (await pdfText(act.bytes)).replace(/\s+/g, ' ');
  expect(actText).toContain('Акт об обезличивании персональных данных');
  expect(actText).toContain(alias);
  expect(actText).not.toContain(victim.user.email);
  expect(actText).not.toContain('Журнал действий: Журнал действий');
  // A human number from the year's counter, not the request's id.
  expect(actText).toMatch(/Акт об обезличивании персональных данных № \d{4}-\d{6}/);
  expect(actText).not.toContain(request.body.id);

  // The answer file is gone (its link answers 404); the attempt keeps its place.
  expect((await fetch(`${portal.content.url}${fileUrl}`)).status).toBe(404);

  // Their sessions ended; their results stay, under the alias.
  expect((await gw('GET', '/api/auth/profile', victim.token)).status).toBe(401);
  const results = await gw('GET', `/api/results?userId=${victim.user.id}`, admin);
  expect(results.body.data.map((r: { userName: string }) => r.userName)).toEqual([alias, alias]);

  // No collection of any service holds the name, the email or the phone (of the victim or the reviewer).
  await auditDrained();
  const stored = await everythingStored();
  expect(stored.length).toBeGreaterThan(20);
  const leaks = stored
    .filter(({ text }) =>
      [victim.user.fullName, victim.user.email, PHONE, reviewer.user.fullName, reviewer.user.email].some((secret) =>
        text.includes(secret),
      ),
    )
    .map(({ where, text }) => `${where}: ${text.slice(0, 200)}`);
  expect(leaks).toEqual([]);
}, 120_000);
