import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { Types } from 'mongoose';
import { JSDOM } from 'jsdom';
import { CONTENT_MSG, formatMessage, invalidIdMessage, type Course, type UploadedFile } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { gradeQuiz, type Question } from '@portal/quiz-engine';
import { userWithRole } from '@portal/svc-auth/testing';
import { auditEventsFor, basedOnStored, seedCourse, startContent, type ContentTestBed } from '../../testing';
import { collectCourseExport } from '../../scormExport/collect';
import { SCORM_EXPORT_MSG } from '../../scormExport/messages';
import { objectStoresOf } from '../../storage';
import { UploadStore } from '../../uploads/store';
import { packageFileName } from '.';

/** A course exported as SCORM 1.2: who may, what the zip holds, and the package played as another LMS would. */
let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 7)]);
const PDF = Buffer.from('%PDF-1.4\n% памятка\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const SCORM12_SCRIPT = readFileSync(require.resolve('scorm-again/scorm12'), 'utf8');

async function upload(data: Buffer, filename: string): Promise<UploadedFile> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), filename);
  const res = await fetch(`${bed.content.url}/api/upload/file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bed.as.CURATOR.token}` },
    body: form,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as UploadedFile;
}

const questions: Question[] = [
  {
    id: 'q1',
    type: 'single_choice',
    question: 'Сколько дней в неделе?',
    options: ['5', '7'],
    correctAnswers: [1],
    order: 1,
    points: 2,
  },
  {
    id: 'q2',
    type: 'multiple_choice',
    question: 'Что относится к СИЗ? <b>не тег</b>',
    options: ['Каска', 'Перчатки', 'Стул'],
    correctAnswers: [0, 1],
    order: 2,
    points: 2,
  },
  {
    id: 'q3',
    type: 'short_answer',
    question: 'Столица России?',
    options: [],
    correctAnswers: [],
    correctAnswer: 'Москва',
    order: 3,
    points: 1,
  },
  {
    id: 'q4',
    type: 'ordering',
    question: 'Расставьте по порядку',
    options: ['Раз', 'Два'],
    correctAnswers: [],
    order: 4,
    points: 1,
  },
];

async function patchLesson(lessonId: string, blocks: unknown[]) {
  const path = `/api/blocks/${lessonId}`;
  const answer = await api(bed.content.url, 'PATCH', path, {
    token: bed.as.CURATOR.token,
    body: await basedOnStored(bed, path, { content: blocks }),
  });
  expect(answer.status).toBe(200);
}

/** A course of two modules: media and a file, a quiz, a closing text; and a draft lesson that stays out. */
async function richCourse(title = 'Охрана труда: «вводный» курс') {
  const course = await seedCourse(bed, { title, modules: [2, 1] });
  const image = await upload(PNG, 'схема.png');
  const file = await upload(PDF, 'Памятка сотрудника.pdf');
  const quiz = await api(bed.content.url, 'POST', '/api/quizzes', {
    token: bed.as.CURATOR.token,
    body: { title: 'Итоговый тест', courseId: course.id, questions, settings: { passingScore: 60 } },
  });
  expect(quiz.status).toBe(201);
  const [first, second] = course.modules[0].lessons;
  const [third] = course.modules[1].lessons;
  await patchLesson(first.id, [
    { type: 'heading', content: { text: 'Введение <script>alert(1)</script>' } },
    { type: 'text', content: { text: 'Первый абзац', html: '<p>Первый <strong>абзац</strong></p>' } },
    { type: 'image', content: { src: image.url, alt: 'Схема эвакуации', caption: 'Схема' } },
    { type: 'video', content: { url: 'https://video.example.ru/watch?v=1&t=2', title: 'Видео о безопасности' } },
    { type: 'file', content: { src: file.url, name: 'Памятка сотрудника.pdf' } },
  ]);
  await patchLesson(second.id, [{ type: 'quiz', content: { quizId: quiz.body.id } }]);
  await patchLesson(third.id, [{ type: 'text', content: { text: 'Спасибо за внимание' } }]);
  const draft = await api(bed.content.url, 'POST', '/api/blocks', {
    token: bed.as.CURATOR.token,
    body: { courseId: course.id, moduleId: course.modules[1].id, title: 'Черновик урока', status: 'draft' },
  });
  expect(draft.status).toBe(201);
  return { course, image, file, quizId: quiz.body.id as string, lessons: [first, second, third] };
}

async function download(courseId: string, token: string | null = bed.as.CURATOR.token) {
  const res = await fetch(`${bed.content.url}/api/courses/${courseId}/export/scorm`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes, json: () => JSON.parse(bytes.toString('utf8')) as { message: string; statusCode: number } };
}

/** The launch page in a window of its own with scorm-again's SCORM 1.2 API installed as window.API. */
async function play(zip: JSZip, previous?: { suspend: string; location: string }) {
  const html = await zip.file('index.html')!.async('string');
  const dom = new JSDOM(html, { runScripts: 'outside-only', url: 'https://lms.example.ru/sco/index.html' });
  const { window } = dom;
  window.eval(SCORM12_SCRIPT);
  const API = new (window as any).Scorm12API({ autocommit: false, logLevel: 5 });
  if (previous) {
    API.loadFromFlattenedJSON({
      'cmi.core.lesson_location': previous.location,
      'cmi.core.entry': 'resume',
      'cmi.suspend_data': previous.suspend,
    });
  }
  (window as any).API = API;
  window.eval(await zip.file('player.js')!.async('string'));
  const doc = window.document;
  const shown = () => doc.querySelector('section.lesson:not([hidden]) h2.lesson-title')?.textContent;
  const click = (el: Element | null) => {
    if (!el) throw new Error('nothing to click');
    (el as HTMLElement).click();
  };
  const next = () => click(doc.querySelector('[data-step="1"]'));
  return { window, doc, API, shown, click, next };
}

describe('GET /api/courses/:id/export/scorm', () => {
  it('answers the course as a SCORM 1.2 zip: a valid manifest, every listed file inside, the uploads copied, links kept', async () => {
    const { course, image, file } = await richCourse();
    const { res, bytes } = await download(course.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const disposition = res.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment;/);
    const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? '';
    expect(decodeURIComponent(encoded)).toBe(packageFileName(course.title));
    expect(packageFileName(course.title)).toBe('Охрана труда «вводный» курс (SCORM 1.2).zip');

    const zip = await JSZip.loadAsync(bytes);
    const { DOMParser } = new JSDOM('').window;
    const xml = new DOMParser().parseFromString(await zip.file('imsmanifest.xml')!.async('string'), 'application/xml');
    const one = (selector: string) => [...xml.querySelectorAll(selector)];
    expect(one('parsererror')).toHaveLength(0);
    expect(one('manifest > metadata > schema').map((e) => e.textContent)).toEqual(['ADL SCORM']);
    expect(one('manifest > metadata > schemaversion').map((e) => e.textContent)).toEqual(['1.2']);
    const organizations = one('manifest > organizations > organization');
    expect(organizations).toHaveLength(1);
    expect(xml.querySelector('organizations')!.getAttribute('default')).toBe(organizations[0].getAttribute('identifier'));
    expect(organizations[0].querySelector('title')!.textContent).toBe(course.title);
    const items = organizations[0].querySelectorAll('item');
    expect(items).toHaveLength(1);
    const resource = xml.querySelector(`resources > resource[identifier="${items[0].getAttribute('identifierref')}"]`)!;
    expect(resource.getAttribute('adlcp:scormtype')).toBe('sco');
    expect(resource.getAttribute('href')).toBe('index.html');
    const hrefs = [...resource.querySelectorAll('file')].map((f) => f.getAttribute('href')!);
    expect(hrefs).toEqual(
      expect.arrayContaining(['index.html', 'player.js', 'player.css', `files/${image.name}`, `files/${file.name}`]),
    );
    for (const href of hrefs) expect(zip.file(href)).not.toBeNull();
    expect(Buffer.from(await zip.file(`files/${image.name}`)!.async('uint8array')).equals(PNG)).toBe(true);
    expect(Buffer.from(await zip.file(`files/${file.name}`)!.async('uint8array')).equals(PDF)).toBe(true);

    const page = new JSDOM(await zip.file('index.html')!.async('string')).window.document;
    const lessons = [...page.querySelectorAll('section.lesson h2.lesson-title')].map((h) => h.textContent);
    expect(lessons).toEqual(course.modules.flatMap((m) => m.lessons.map((l) => l.title)));
    // Text is text: the heading's markup is shown, never run.
    expect(page.querySelector('script:not([src]):not([type="application/json"])')).toBeNull();
    expect([...page.querySelectorAll('section h2')].some((h) => h.textContent === 'Введение <script>alert(1)</script>')).toBe(
      true,
    );
    expect(page.querySelector('.text strong')?.textContent).toBe('абзац');
    expect(page.querySelector('figure img')?.getAttribute('src')).toBe(`files/${image.name}`);
    expect(page.querySelector('figure img')?.getAttribute('alt')).toBe('Схема эвакуации');
    const videoLink = page.querySelector('.media a');
    expect(videoLink?.getAttribute('href')).toBe('https://video.example.ru/watch?v=1&t=2');
    expect(videoLink?.textContent).toBe('Видео о безопасности');
    const fileLink = page.querySelector('.file a');
    expect(fileLink?.getAttribute('href')).toBe(`files/${file.name}`);
    expect(fileLink?.getAttribute('download')).toBe('Памятка сотрудника.pdf');
    expect(page.querySelectorAll('form.quiz fieldset.question')).toHaveLength(3);
    expect(page.querySelector('fieldset[data-question="q2"] legend')?.textContent).toBe('Что относится к СИЗ? <b>не тег</b>');
    expect(page.querySelector('.question.skipped .note')?.textContent).toContain('«Порядок»');
    expect(page.body.textContent).not.toContain('Черновик урока');

    const events = await auditEventsFor(bed.content, course.id);
    expect(events.at(-1)).toMatchObject({
      action: 'read',
      entity: 'course',
      details: `Выгрузка курса «${course.title}» в SCORM 1.2`,
      actor: expect.objectContaining({ id: bed.as.CURATOR.user.id }),
    });
  });

  it('plays in another LMS: lessons move the location, the quiz is graded as the portal grades it, status and score reach the API', async () => {
    const { course, lessons } = await richCourse();
    const zip = await JSZip.loadAsync((await download(course.id, bed.as.ADMIN.token)).bytes);

    const run = await play(zip);
    expect(run.API.isInitialized()).toBe(true);
    expect(run.shown()).toBe(lessons[0].title);
    expect(run.API.cmi.core.lesson_location).toBe(lessons[0].id);
    expect(run.API.cmi.core.lesson_status).toBe('incomplete');
    run.next();
    expect(run.shown()).toBe(lessons[1].title);
    expect(run.API.cmi.core.lesson_location).toBe(lessons[1].id);

    // Right on q1 (2 points), one right and one wrong choice on q2 (all or nothing: 0), right on q3 in other case.
    const form = run.doc.querySelector('form.quiz')!;
    run.click(form.querySelector('fieldset[data-question="q1"] input[value="1"]'));
    run.click(form.querySelector('fieldset[data-question="q2"] input[value="0"]'));
    run.click(form.querySelector('fieldset[data-question="q2"] input[value="2"]'));
    const text = form.querySelector<HTMLInputElement>('fieldset[data-question="q3"] input')!;
    text.value = '  москва ';
    text.dispatchEvent(new run.window.Event('input', { bubbles: true }));
    run.click(form.querySelector('button[type="submit"]'));

    const engine = gradeQuiz(questions, { q1: 1, q2: [0, 2], q3: '  москва ', q4: undefined }, { passingScore: 60 });
    // The ordering question is not in the package: its point is out of the package's total.
    const packaged = gradeQuiz(questions.slice(0, 3), { q1: 1, q2: [0, 2], q3: '  москва ' }, { passingScore: 60 });
    expect(engine.score).toBe(3);
    expect(packaged).toMatchObject({ score: 3, maxScore: 5, percentage: 60, status: 'passed' });
    expect(form.querySelector('.quiz-result')?.textContent).toBe('Результат: 3 из 5 баллов (60%). Тест пройден');
    expect(run.API.cmi.core.score.raw).toBe('60');
    expect(run.API.cmi.core.score.min).toBe('0');
    expect(run.API.cmi.core.score.max).toBe('100');
    expect(run.API.cmi.core.lesson_status).toBe('passed');
    expect(form.querySelector<HTMLButtonElement>('button[type="submit"]')!.disabled).toBe(true);

    // The last lesson through the contents; leaving the page finishes the session.
    run.click(run.doc.querySelector('[data-goto="2"]'));
    expect(run.shown()).toBe(lessons[2].title);
    expect(run.API.cmi.core.lesson_location).toBe(lessons[2].id);
    const suspend = String(run.API.cmi.suspend_data);
    expect(JSON.parse(suspend)).toEqual({ v: [0, 1, 2], q: { [form.getAttribute('data-quiz')!]: [3, 5, 60, 1] } });
    run.window.dispatchEvent(new run.window.Event('pagehide'));
    expect(run.API.isTerminated()).toBe(true);

    // Coming back: the LMS gives the bookmark and the suspend data; the quiz stays answered.
    const again = await play(zip, { suspend, location: lessons[2].id });
    expect(again.shown()).toBe(lessons[2].title);
    expect(again.doc.querySelector('form.quiz .quiz-result')?.textContent).toBe('Результат: 3 из 5 баллов (60%). Тест пройден');
    expect(again.API.cmi.core.lesson_status).toBe('passed');
    expect(again.API.cmi.core.score.raw).toBe('60');
  });

  it('a quiz below its passing score fails the course; a course without quizzes completes when every lesson was opened', async () => {
    const { course } = await richCourse();
    const failing = await play(await JSZip.loadAsync((await download(course.id)).bytes));
    failing.next();
    failing.click(failing.doc.querySelector('fieldset[data-question="q1"] input[value="0"]'));
    failing.click(failing.doc.querySelector('form.quiz button[type="submit"]'));
    expect(failing.API.cmi.core.lesson_status).toBe('failed');
    expect(failing.API.cmi.core.score.raw).toBe('0');

    const plain = await seedCourse(bed, { modules: [1, 1] });
    const run = await play(await JSZip.loadAsync((await download(plain.id)).bytes));
    expect(run.API.cmi.core.lesson_status).toBe('incomplete');
    expect(run.API.cmi.core.score.raw).toBe('');
    run.next();
    expect(run.API.cmi.core.lesson_status).toBe('completed');
  });

  it('only the course’s authors and ADMIN export it: 401 without a token, 403 for others, 404 and 400 for bad ids', async () => {
    const { course } = await richCourse();
    expect((await download(course.id, null)).res.status).toBe(401);
    for (const role of ['CLIENT', 'CANDIDATE', 'MANAGER'] as const) {
      const refused = await download(course.id, bed.as[role].token);
      expect(refused.res.status).toBe(403);
    }
    const otherCurator = await userWithRole(bed.auth, 'CURATOR');
    const notAuthor = await download(course.id, otherCurator.token);
    expect(notAuthor.res.status).toBe(403);
    expect(notAuthor.json()).toMatchObject({ statusCode: 403, message: SCORM_EXPORT_MSG.forbidden });
    // A co-author exports it as its owner does.
    const added = await api(bed.content.url, 'POST', `/api/courses/${course.id}/authors`, {
      token: bed.as.CURATOR.token,
      body: { userId: otherCurator.user.id },
    });
    expect(added.status).toBe(200);
    expect((await download(course.id, otherCurator.token)).res.status).toBe(200);

    const missing = await download('0123456789abcdef01234567');
    expect(missing.res.status).toBe(404);
    expect(missing.json().message).toBe(CONTENT_MSG.courseNotFound);
    const bad = await download('%D0%BA%D1%83%D1%80%D1%81!');
    expect(bad.res.status).toBe(400);
    expect(bad.json().message).toBe(invalidIdMessage('id'));
  });

  it('the same course is the same bytes: every entry is dated by the course’s last change, and an edit changes the date', async () => {
    const { course, lessons } = await richCourse();
    // The course and its lessons last changed long ago (in the store, as an old course would be).
    const then = new Date('2024-03-01T09:00:00Z');
    const stamp = { $set: { updatedAt: then } };
    await bed.models.courses.collection.updateOne({ _id: new Types.ObjectId(course.id) }, stamp);
    await bed.models.blocks.collection.updateMany({ courseId: new Types.ObjectId(course.id) }, stamp);
    const first = await download(course.id);
    const second = await download(course.id);
    expect(first.res.status).toBe(200);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    const dates = Object.values((await JSZip.loadAsync(first.bytes)).files).map((f) => f.date.getTime());
    expect(new Set(dates)).toEqual(new Set([then.getTime()]));

    await patchLesson(lessons[2].id, [{ type: 'text', content: { text: 'Спасибо за внимание!' } }]);
    const edited = Object.values((await JSZip.loadAsync((await download(course.id)).bytes)).files);
    expect(edited.every((f) => f.date.getTime() > then.getTime())).toBe(true);
  });

  it('refuses a course with no published lesson (400) and one whose files exceed the cap (413), before building anything', async () => {
    const empty: Course = await seedCourse(bed, { modules: [1], lessonStatus: 'draft' });
    const refused = await download(empty.id);
    expect(refused.res.status).toBe(400);
    expect(refused.json().message).toBe(SCORM_EXPORT_MSG.noLessons);

    const { course } = await richCourse();
    const store = new UploadStore(
      { dir: bed.uploadDir, maxBytes: 1024, maxFiles: 1 },
      objectStoresOf(bed.content.ctx.config, bed.content.ctx.store).files,
    );
    const principal = { id: bed.as.CURATOR.user.id, role: 'CURATOR' as const, email: bed.as.CURATOR.user.email, fullName: '' };
    await expect(
      collectCourseExport(bed.models, store, principal, new Types.ObjectId(course.id), PNG.length),
    ).rejects.toMatchObject({ statusCode: 413, message: formatMessage(SCORM_EXPORT_MSG.tooBig, { max: 0 }) });
  });
});
