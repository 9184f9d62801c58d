import {
  CERTIFICATE_MSG,
  MSG,
  type AuthResponse,
  type Certificate,
  type CertificateCheck,
  type StartedAttempt,
} from '@portal/contracts';
import { pdfFonts, pdfText as extractText } from '@portal/devstack/pdf';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

let bed: ProgressTestBed;
let seeded: SeededCourse;
beforeAll(async () => {
  bed = await startProgress({
    PUBLIC_URL: 'https://learn.example.ru',
    CERTIFICATE_ISSUER: 'АО «Северная верфь», учебный центр',
    CERTIFICATE_SIGNATORY: 'Директор учебного центра Е. В. Орлова',
  });
  seeded = await seedQuizCourse(bed, { title: 'Охрана труда для руководителей' });
});
afterAll(() => bed.close());

type Answer<T> = T & { message?: string };
const call = <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<Answer<T>>(bed.progress.url, method, path, { token, body });

async function completeCourse(person: AuthResponse): Promise<void> {
  for (const lessonId of [seeded.textLessonId, seeded.quizLessonId])
    await call('POST', `/api/progress/lesson/${lessonId}/complete`, person.token, { courseId: seeded.course.id });
  const started = await call<StartedAttempt>('POST', '/api/attempts', person.token, {
    quizId: seeded.quiz.id,
    courseId: seeded.course.id,
    lessonId: seeded.quizLessonId,
  });
  const answers = started.body.questions.map((q) => ({
    questionId: q.id,
    answer: q.type === 'single_choice' ? q.options.indexOf('28') : q.type === 'true_false' ? 'true' : 'Трудовой кодекс',
    timeSpent: 5,
  }));
  await call('POST', `/api/attempts/${started.body.attempt.id}/submit`, person.token, { answers });
}

async function pdfText(token: string, number: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${bed.progress.url}/api/certificates/${number}/pdf`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) return { status: res.status, type: res.headers.get('content-type'), text: '' };
  return { status: 200, type: res.headers.get('content-type'), text: await extractText(new Uint8Array(await res.arrayBuffer())) };
}

it('is refused before the course is completed, and nothing is stored', async () => {
  const person = await bed.learner();
  await call('POST', `/api/progress/lesson/${seeded.textLessonId}/complete`, person.token, { courseId: seeded.course.id });
  const early = await call('POST', '/api/certificates', person.token, { courseId: seeded.course.id });
  expect(early.status).toBe(400);
  expect(early.body.message).toBe(CERTIFICATE_MSG.notCompleted);
  expect(await bed.store.certificates.countDocuments({ userId: person.user.id })).toBe(0);
  expect((await call('POST', '/api/certificates', undefined, { courseId: seeded.course.id })).status).toBe(401);
  expect((await call('POST', '/api/certificates', bed.as.CURATOR.token, { courseId: seeded.course.id })).status).toBe(403);
});

it("embeds the certificate's fonts as subsets that pdffonts recognises by their tag (ABCDEF+Name)", async () => {
  const person = await userWithRole(bed.auth, 'CLIENT', 'Петров Пётр Петрович');
  await completeCourse(person);
  const issued = await call<Certificate>('POST', '/api/certificates', person.token, { courseId: seeded.course.id });
  const res = await fetch(`${bed.progress.url}/api/certificates/${issued.body.number}/pdf`, {
    headers: { authorization: `Bearer ${person.token}` },
  });
  expect(res.status).toBe(200);
  const fonts = await pdfFonts(new Uint8Array(await res.arrayBuffer()));
  expect(fonts.length).toBeGreaterThanOrEqual(2);
  for (const font of fonts) {
    expect(font.name).toMatch(/^[A-Z]{6}\+DejaVuSerif/);
    expect(font).toMatchObject({ embedded: true, subset: true, unicode: true });
  }
});

it('issues one certificate on completion: a PDF in Russian with the number, ФИО, course, hours and date; /verify confirms it', async () => {
  const person = await userWithRole(bed.auth, 'CLIENT', 'Иванов Иван Иванович');
  await completeCourse(person);
  const issued = await call<Certificate>('POST', '/api/certificates', person.token, { courseId: seeded.course.id });
  expect(issued.status).toBe(201);
  expect(issued.body).toMatchObject({ fullName: 'Иванов Иван Иванович', courseTitle: 'Охрана труда для руководителей' });
  expect(issued.body.number).toMatch(/^C-\d{4}-[2-9A-HJ-NP-Z]{8}$/);
  const again = await call<Certificate>('POST', '/api/certificates', person.token, { courseId: seeded.course.id });
  expect(again.status).toBe(200);
  expect(again.body.number).toBe(issued.body.number);
  expect(await bed.store.certificates.countDocuments({ userId: person.user.id })).toBe(1);

  const pdf = await pdfText(person.token, issued.body.number);
  expect(pdf.type).toBe('application/pdf');
  const text = pdf.text.replace(/\s+/g, ' ');
  expect(text).toContain('СЕРТИФИКАТ');
  expect(text).toContain(issued.body.number);
  expect(text).toContain('Иванов Иван Иванович');
  expect(text).toContain('Охрана труда для руководителей');
  expect(text).toMatch(/Объём: \d+ час/);
  expect(text).toContain(`https://learn.example.ru/verify/${issued.body.number}`);
  // Who issued it and who signs it, from the settings.
  expect(text).toContain('Выдан: АО «Северная верфь», учебный центр');
  expect(text).toMatch(/_{10,} ?Директор учебного центра Е\. В\. Орлова/);

  const check = await call<CertificateCheck>('GET', `/api/certificates/verify/${issued.body.number.toLowerCase()}`);
  expect(check.status).toBe(200);
  expect(check.body).toEqual({
    valid: true,
    number: issued.body.number,
    fullName: 'Иванов Иван Иванович',
    subject: 'course',
    courseTitle: 'Охрана труда для руководителей',
    hours: issued.body.hours,
    completedAt: issued.body.completedAt,
  });

  const mine = await call('GET', '/api/certificates/my', person.token);
  expect(mine.body).toMatchObject({ total: 1, data: [{ number: issued.body.number }] });
  expect(JSON.stringify(mine.body)).not.toMatch(/pdf/i);

  // Another learner and a curator of other courses cannot download it (404, as if it did not exist);
  // the course's author and an administrator can.
  const other = await bed.learner();
  expect((await pdfText(other.token, issued.body.number)).status).toBe(404);
  const stranger = await userWithRole(bed.auth, 'CURATOR', 'Ольга Сторонняя');
  expect((await pdfText(stranger.token, issued.body.number)).status).toBe(404);
  expect((await pdfText(bed.as.CURATOR.token, issued.body.number)).status).toBe(200);
  expect((await pdfText(bed.as.ADMIN.token, issued.body.number)).status).toBe(200);
});

it('/verify says a well-formed unknown number is not found and a malformed one is refused, in Russian', async () => {
  const unknown = await call('GET', '/api/certificates/verify/C-2026-ABCDEFGH');
  expect(unknown.status).toBe(404);
  expect(unknown.body.message).toBe(CERTIFICATE_MSG.notFound);
  const malformed = await call('GET', `/api/certificates/verify/${encodeURIComponent('не номер')}`);
  expect(malformed.status).toBe(400);
  expect(malformed.body.message).toBe(CERTIFICATE_MSG.numberInvalid);
  expect((await call('GET', '/api/certificates/my')).status).toBe(401);
  expect((await call('GET', '/api/certificates/my', bed.as.ADMIN.token)).body.message).toBe(MSG.forbidden);
});

it('/verify answers 429 in Russian with Retry-After past the limit per address, malformed numbers counted too; other addresses still check', async () => {
  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
  const limit = bed.progress.ctx.config.CERTIFICATE_VERIFY_RATE_LIMIT;
  const answers = [];
  for (let i = 0; i < limit; i += 1) {
    const number = i % 2 ? 'C-2026-ABCDEFGH' : 'не-номер';
    answers.push(
      (await api(bed.progress.url, 'GET', `/api/certificates/verify/${encodeURIComponent(number)}`, from('198.51.100.7'))).status,
    );
  }
  expect(new Set(answers)).toEqual(new Set([400, 404]));
  const refused = await api(bed.progress.url, 'GET', '/api/certificates/verify/C-2026-ABCDEFGH', from('198.51.100.7'));
  expect(refused).toMatchObject({ status: 429, body: { message: CERTIFICATE_MSG.tooManyChecks } });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await api(bed.progress.url, 'GET', '/api/certificates/verify/C-2026-ABCDEFGH', from('198.51.100.8'))).status).toBe(404);
});
