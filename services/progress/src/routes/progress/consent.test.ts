import { CONSENT_DOCUMENT, CONSENT_MSG, type AuthResponse, type StartedAttempt } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { uniqueEmail } from '@portal/svc-auth/testing';
import { seedQuizCourse, startProgress, type ProgressTestBed, type SeededCourse } from '../../testing';

/*
 * the consent to the processing of personal data (152-FZ) is enforced by the
 * services, not only by the browser's dialog. Learning is refused with a 403 naming the consent until
 * the person gives it; signing in, reading the text, giving and withdrawing it stay open.
 */

let bed: ProgressTestBed;
let seeded: SeededCourse;
beforeAll(async () => {
  bed = await startProgress();
  seeded = await seedQuizCourse(bed);
});
afterAll(() => bed.close());

type Answer<T> = T & { message?: string };
const progress = <T = any>(method: string, path: string, token: string, body?: unknown) =>
  api<Answer<T>>(bed.progress.url, method, path, { token, body });

/** An account registered through the API without the consent's checkbox, as a script could. */
async function registeredWithoutConsent(): Promise<AuthResponse> {
  const answer = await api<AuthResponse>(bed.auth.url, 'POST', '/api/auth/register', {
    body: { email: uniqueEmail('noconsent'), password: 'Kursy-Portal-42', fullName: 'Несогласный Учащийся' },
  });
  if (answer.status !== 201) throw new Error(`register: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const startCourse = (token: string) => api(bed.content.url, 'POST', `/api/courses/${seeded.course.id}/start`, { token });
const completeLesson = (token: string, lessonId = seeded.textLessonId) =>
  progress('POST', `/api/progress/lesson/${lessonId}/complete`, token, { courseId: seeded.course.id });
const startAttempt = (token: string) =>
  progress<StartedAttempt>('POST', '/api/attempts', token, {
    quizId: seeded.quiz.id,
    courseId: seeded.course.id,
    lessonId: seeded.quizLessonId,
  });
const submitAttempt = (token: string, started: StartedAttempt) =>
  progress('POST', `/api/attempts/${started.attempt.id}/submit`, token, {
    answers: started.questions.map((q) => ({
      questionId: q.id,
      answer: q.type === 'single_choice' ? q.options.indexOf('28') : q.type === 'true_false' ? 'true' : 'Трудовой кодекс',
      timeSpent: 5,
    })),
  });
async function uploadAnswer(token: string) {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('Мой ответ')], { type: 'text/plain' }), 'ответ.txt');
  const res = await fetch(`${bed.content.url}/api/upload/answer?quizId=${seeded.quiz.id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { message?: string } };
}
const issueCertificate = (token: string) => progress('POST', '/api/certificates', token, { courseId: seeded.course.id });
const giveConsent = (token: string) =>
  api(bed.auth.url, 'POST', '/api/consent', { token, body: { version: CONSENT_DOCUMENT.version } });

const refusedForConsent = (answer: { status: number; body: { message?: string } }) =>
  expect([answer.status, answer.body.message]).toEqual([403, CONSENT_MSG.neededToStudy]);

describe('learning needs the consent to the processing of personal data', () => {
  it('refuses an account without it to start a course, complete a lesson, take a quiz, upload an answer or get a certificate', async () => {
    const person = await registeredWithoutConsent();
    const { token } = person;
    const consent = await api(bed.auth.url, 'GET', '/api/consent', { token });
    expect(consent.body).toMatchObject({ required: true });

    refusedForConsent(await startCourse(token));
    refusedForConsent(await completeLesson(token));
    refusedForConsent(await startAttempt(token));
    refusedForConsent(await uploadAnswer(token));
    refusedForConsent(await issueCertificate(token));

    // Nothing of their learning was recorded.
    const id = person.user.id;
    expect(await bed.store.completions.countDocuments({ userId: id })).toBe(0);
    expect(await bed.store.attempts.countDocuments({ userId: id })).toBe(0);
    expect(await bed.store.certificates.countDocuments({ userId: id })).toBe(0);
    expect(await bed.models.uploads.countDocuments({ uploadedBy: id })).toBe(0);
    const started = await api<Array<{ id: string }>>(bed.content.url, 'GET', '/api/courses/started/my', { token });
    expect(started.body).toEqual([]);

    // What stays open: the course itself, the text of the consent and their own (empty) progress.
    expect((await api(bed.content.url, 'GET', `/api/courses/${seeded.course.id}`, { token })).status).toBe(200);
    expect((await api(bed.auth.url, 'GET', '/api/consent/document')).status).toBe(200);
    expect((await progress('GET', '/api/progress/my', token)).status).toBe(200);
  });

  it('lets the same account study at once after it consents, and stops it again when the consent is withdrawn', async () => {
    const { token } = await registeredWithoutConsent();
    refusedForConsent(await startCourse(token)); // the refusal is cached nowhere past the consent
    expect((await giveConsent(token)).status).toBe(201);

    expect((await startCourse(token)).status).toBe(200);
    const attempt = await startAttempt(token);
    expect(attempt.status).toBe(201);
    expect((await submitAttempt(token, attempt.body)).status).toBe(200);
    expect((await uploadAnswer(token)).status).toBe(201);
    // Passing the quiz may have completed its lesson already (200); the text lesson is new (201).
    expect((await completeLesson(token, seeded.textLessonId)).status).toBe(201);
    expect([200, 201]).toContain((await completeLesson(token, seeded.quizLessonId)).status);
    expect((await issueCertificate(token)).status).toBe(201);

    expect((await api(bed.auth.url, 'POST', '/api/consent/withdraw', { token })).status).toBe(200);
    refusedForConsent(await startAttempt(token));
    refusedForConsent(await uploadAnswer(token));
  });

  it('lets HR assign a course to a person who has not consented yet; the person cannot study it until they do', async () => {
    const person = await registeredWithoutConsent();
    const assigned = await progress('POST', '/api/assignments', bed.as.CURATOR.token, {
      courseId: seeded.course.id,
      audience: { kind: 'users', userIds: [person.user.id] },
      dueDate: '2100-01-31',
    });
    expect(assigned.status).toBe(201);
    const mine = await progress<{ data: unknown[] }>('GET', '/api/assignments/my', person.token);
    expect(mine.body.data).toHaveLength(1);
    refusedForConsent(await startCourse(person.token));
  });
});
