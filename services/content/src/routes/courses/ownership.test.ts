import {
  CONTENT_MSG,
  newQuestion,
  type AuthResponse,
  type Course,
  type CourseAuthors,
  type CourseSummary,
  type Quiz,
} from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userWithRole } from '@portal/svc-auth/testing';
import { basedOnStored, seedCourse, startContent, storedCourse, uniqueTitle, type ContentTestBed } from '../../testing';

let bed: ContentTestBed;
let stranger: AuthResponse;
beforeAll(async () => {
  bed = await startContent();
  stranger = await userWithRole(bed.auth, 'CURATOR', 'Чужой Куратор');
});
afterAll(() => bed.close());

// Every edit here is based on the version stored just before it, as the editor's is on what it read.
const call = async <T = any>(method: string, path: string, token?: string, body?: unknown) =>
  api<T>(bed.content.url, method, path, {
    token,
    body: method === 'PATCH' || method === 'PUT' ? await basedOnStored(bed, path, body) : body,
  });

/**
 * A published course of the test bed's curator with one module of one lesson, and a quiz written for
 * it (published, so that another curator sees it and is refused its writes rather than told it is not there).
 */
async function ownedCourse() {
  const course = await seedCourse(bed, { modules: [1], status: 'published' });
  const module = course.modules[0];
  const lesson = module.lessons[0];
  const quiz = await call('POST', '/api/quizzes', bed.as.CURATOR.token, { title: 'Квиз автора', courseId: course.id });
  expect(quiz.status).toBe(201);
  return { course, moduleId: module.id, lessonId: lesson.id, quizId: quiz.body.id as string };
}

/** Every write route of a course and what is in it, as one caller would send it. */
const writes = ({ course, moduleId, lessonId, quizId }: Awaited<ReturnType<typeof ownedCourse>>) =>
  [
    ['PATCH', `/api/courses/${course.id}`, { title: 'Захвачен' }],
    ['DELETE', `/api/courses/${course.id}`, undefined],
    ['POST', '/api/blocks', { type: 'MODULE', courseId: course.id }],
    ['POST', '/api/blocks', { courseId: course.id, moduleId }],
    ['PATCH', `/api/blocks/${moduleId}`, { title: 'Чужой модуль' }],
    ['PATCH', `/api/blocks/${lessonId}`, { title: 'Чужой урок' }],
    ['DELETE', `/api/blocks/${lessonId}`, undefined],
    ['DELETE', `/api/blocks/${moduleId}`, undefined],
    ['POST', `/api/blocks/${lessonId}/copy`, undefined],
    ['POST', '/api/blocks/reorder', { blocks: [{ id: lessonId, position: 0 }] }],
    ['POST', '/api/blocks/import', { courseId: course.id, moduleId, lessonIds: [lessonId] }],
    ['POST', '/api/quizzes', { title: 'Подброшенный квиз', courseId: course.id }],
    ['PATCH', `/api/quizzes/${quizId}`, { title: 'Чужой квиз' }],
    ['DELETE', `/api/quizzes/${quizId}`, undefined],
    ['POST', `/api/courses/${course.id}/authors`, { email: stranger.user.email }],
  ] as const;

describe('course ownership', () => {
  it('another curator gets 403 with a Russian message on every write route of the course, and nothing changes', async () => {
    const owned = await ownedCourse();
    const before = await storedCourse(bed, owned.course.id);
    const quizzesBefore = await bed.models.quizzes.countDocuments({});
    for (const [method, path, body] of writes(owned)) {
      const answer = await call(method, path, stranger.token, body);
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 403 });
      expect(answer.body.message).toBe(path.endsWith('/authors') ? CONTENT_MSG.coAuthorsOwnerOnly : CONTENT_MSG.notCourseAuthor);
    }
    expect(await storedCourse(bed, owned.course.id)).toEqual(before);
    expect(await bed.models.quizzes.countDocuments({})).toBe(quizzesBefore);
  });

  it('the owner and any ADMIN change it; the card says who owns it', async () => {
    const { course } = await ownedCourse();
    expect(course).toMatchObject({ ownerId: bed.as.CURATOR.user.id, coAuthorIds: [], archived: false });
    expect((await call('PATCH', `/api/courses/${course.id}`, bed.as.CURATOR.token, { title: 'Автор правит' })).status).toBe(200);
    expect((await call('PATCH', `/api/courses/${course.id}`, bed.as.ADMIN.token, { title: 'Админ правит' })).status).toBe(200);
    expect((await storedCourse(bed, course.id)).course).toMatchObject({ title: 'Админ правит' });
  });

  it('the owner adds a co-author by email, who may then change the course; removed, they may not', async () => {
    const owned = await ownedCourse();
    const path = `/api/courses/${owned.course.id}/authors`;
    const added = await call<CourseAuthors>('POST', path, bed.as.CURATOR.token, { email: stranger.user.email.toUpperCase() });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      owner: { id: bed.as.CURATOR.user.id, email: bed.as.CURATOR.user.email, fullName: bed.as.CURATOR.user.fullName },
      coAuthors: [{ id: stranger.user.id, email: stranger.user.email, fullName: 'Чужой Куратор' }],
    });
    const card = await call<Course>('GET', `/api/courses/${owned.course.id}`, stranger.token);
    expect(card.body.coAuthorIds).toEqual([stranger.user.id]);
    expect((await call('PATCH', `/api/blocks/${owned.lessonId}`, stranger.token, { title: 'Соавтор правит' })).status).toBe(200);
    expect((await call('PATCH', `/api/quizzes/${owned.quizId}`, stranger.token, { title: 'Соавтор правит квиз' })).status).toBe(
      200,
    );
    // A co-author does not hand out co-authorship.
    const third = await userWithRole(bed.auth, 'CURATOR', 'Третий Куратор');
    const handOut = await call('POST', path, stranger.token, { userId: third.user.id });
    expect(handOut.status).toBe(403);
    expect(handOut.body.message).toBe(CONTENT_MSG.coAuthorsOwnerOnly);

    const removed = await call<CourseAuthors>('DELETE', `${path}/${stranger.user.id}`, bed.as.CURATOR.token);
    expect(removed.body.coAuthors).toEqual([]);
    const refused = await call('PATCH', `/api/blocks/${owned.lessonId}`, stranger.token, { title: 'Уже нельзя' });
    expect(refused.status).toBe(403);
    expect((await bed.models.blocks.findById(owned.lessonId).lean())?.title).toBe('Соавтор правит');
  });

  it('refuses a co-author who is not a curator, the owner, an unknown person, and an empty request', async () => {
    const { course } = await ownedCourse();
    const path = `/api/courses/${course.id}/authors`;
    const learner = await call('POST', path, bed.as.CURATOR.token, { userId: bed.as.CLIENT.user.id });
    expect([learner.status, learner.body.message]).toEqual([400, CONTENT_MSG.coAuthorNotCurator]);
    const owner = await call('POST', path, bed.as.CURATOR.token, { email: bed.as.CURATOR.user.email });
    expect([owner.status, owner.body.message]).toEqual([400, CONTENT_MSG.coAuthorIsOwner]);
    const unknown = await call('POST', path, bed.as.CURATOR.token, { email: 'nobody.here@example.test' });
    expect([unknown.status, unknown.body.message]).toEqual([404, CONTENT_MSG.coAuthorNotFound]);
    const empty = await call('POST', path, bed.as.CURATOR.token, {});
    expect([empty.status, empty.body.message]).toEqual([400, CONTENT_MSG.coAuthorTarget]);
    expect((await storedCourse(bed, course.id)).course?.coAuthors).toEqual([]);
    // Learners never see the authors list.
    expect((await call('GET', path, bed.as.CLIENT.token)).status).toBe(403);
  });

  it('an ADMIN adds co-authors to any course, also one made before owners were kept (which curators cannot change)', async () => {
    const { course } = await ownedCourse();
    await bed.models.courses.updateOne({ _id: course.id }, { $set: { createdBy: null } });
    const refused = await call('PATCH', `/api/courses/${course.id}`, bed.as.CURATOR.token, { title: 'Без автора' });
    expect([refused.status, refused.body.message]).toEqual([403, CONTENT_MSG.notCourseAuthor]);
    const added = await call('POST', `/api/courses/${course.id}/authors`, bed.as.ADMIN.token, { userId: stranger.user.id });
    expect(added.body).toMatchObject({ owner: null, coAuthors: [{ id: stranger.user.id }] });
    expect((await call('PATCH', `/api/courses/${course.id}`, stranger.token, { title: 'Соавтор взял' })).status).toBe(200);
  });

  it('a quiz written for no course is changed by its author and an ADMIN only', async () => {
    const quiz = await call('POST', '/api/quizzes', bed.as.CURATOR.token, { title: 'Свободный квиз' });
    const id = quiz.body.id as string;
    const refused = await call('PATCH', `/api/quizzes/${id}`, stranger.token, { title: 'Чужой' });
    expect(refused.status).toBe(403);
    expect((await call('DELETE', `/api/quizzes/${id}`, stranger.token)).status).toBe(403);
    expect((await call('PATCH', `/api/quizzes/${id}`, bed.as.CURATOR.token, { title: 'Свой' })).status).toBe(200);
    expect((await call('PATCH', `/api/quizzes/${id}`, bed.as.ADMIN.token, { title: 'Админский' })).status).toBe(200);
    // Nor can another curator pull it into their course and so take it over.
    const theirs = await seedCourse(bed, { token: stranger.token });
    const moved = await call('PATCH', `/api/quizzes/${id}`, stranger.token, { courseId: theirs.id });
    expect(moved.status).toBe(403);
    expect((await bed.models.quizzes.findById(id).lean())?.courseId).toBeNull();
  });
});

describe('what another curator reads (docs/decisions/019)', () => {
  const KEYED = {
    ...newQuestion('single_choice', 'q1', 0),
    question: 'Сколько дней отпуска?',
    options: ['28', '14'],
    correctAnswers: [0],
  };

  /** A draft course of the test bed's curator: a lesson with a keyed quiz, a draft lesson, a bank question. */
  async function draftWithKeys(status: 'draft' | 'published' = 'draft') {
    const course = await seedCourse(bed, { modules: [1], status });
    const quiz = await call<Quiz>('POST', '/api/quizzes', bed.as.CURATOR.token, {
      title: 'Ключи',
      courseId: course.id,
      questions: [KEYED],
    });
    expect(quiz.status).toBe(201);
    const lesson = course.modules[0].lessons[0];
    const withQuiz = await call('PATCH', `/api/blocks/${lesson.id}`, bed.as.CURATOR.token, {
      content: [{ type: 'quiz', content: { quizId: quiz.body.id, questionsCount: 1 } }],
      version: lesson.version,
    });
    expect(withQuiz.status).toBe(200);
    const draftLesson = await call('POST', '/api/blocks', bed.as.CURATOR.token, {
      courseId: course.id,
      moduleId: course.modules[0].id,
      title: 'Черновик автора',
    });
    expect(draftLesson.status).toBe(201);
    const bank = await call('POST', `/api/courses/${course.id}/bank`, bed.as.CURATOR.token, {
      tags: ['отпуск'],
      question: KEYED,
    });
    expect(bank.status).toBe(201);
    return { course, quizId: quiz.body.id, bankId: bank.body.id as string };
  }

  it('another curator does not find a draft course, its quizzes or its bank; the owner, a co-author and an ADMIN do', async () => {
    const { course, quizId, bankId } = await draftWithKeys();
    const listed = async (token: string) =>
      (await call<CourseSummary[]>('GET', `/api/courses?search=${encodeURIComponent(course.title)}`, token)).body.map(
        (c) => c.id,
      );
    expect(await listed(stranger.token)).toEqual([]);
    expect((await call('GET', `/api/courses/${course.id}`, stranger.token)).status).toBe(404);
    expect((await call('GET', `/api/courses/${course.id}/outline`, stranger.token)).status).toBe(404);
    expect((await call('GET', `/api/blocks/${course.modules[0].lessons[0].id}`, stranger.token)).status).toBe(404);
    expect((await call('GET', `/api/quizzes/${quizId}`, stranger.token)).status).toBe(404);
    const quizzes = await call<Array<{ id: string }>>('GET', `/api/quizzes?courseId=${course.id}`, stranger.token);
    expect(quizzes.body).toEqual([]);
    for (const path of [`/api/courses/${course.id}/bank`, `/api/courses/${course.id}/bank/${bankId}`]) {
      const bank = await call('GET', path, stranger.token);
      expect([bank.status, bank.body.message]).toEqual([403, CONTENT_MSG.courseAuthorsOnly]);
    }

    for (const token of [bed.as.CURATOR.token, bed.as.ADMIN.token]) {
      expect(await listed(token)).toEqual([course.id]);
      expect((await call<Quiz>('GET', `/api/quizzes/${quizId}`, token)).body.questions[0].correctAnswers).toEqual([0]);
      expect((await call('GET', `/api/courses/${course.id}/bank`, token)).status).toBe(200);
    }
    await call('POST', `/api/courses/${course.id}/authors`, bed.as.CURATOR.token, { email: stranger.user.email });
    expect(await listed(stranger.token)).toEqual([course.id]);
    expect((await call<Quiz>('GET', `/api/quizzes/${quizId}`, stranger.token)).body.questions[0].correctAnswers).toEqual([0]);
    expect((await call('GET', `/api/courses/${course.id}/bank/${bankId}`, stranger.token)).status).toBe(200);
  });

  it('another curator reads a published course as a learner does: no draft lesson, no answer keys, no copy or import of it', async () => {
    const { course, quizId } = await draftWithKeys('published');
    const page = await call<Course>('GET', `/api/courses/${course.id}`, stranger.token);
    expect(page.status).toBe(200);
    expect(page.body.modules[0].lessons.map((l) => l.title)).toEqual([course.modules[0].lessons[0].title]);
    const quiz = await call('GET', `/api/quizzes/${quizId}`, stranger.token);
    expect(quiz.status).toBe(200);
    expect(quiz.body.questions[0].question).toBe('Сколько дней отпуска?');
    expect(JSON.stringify(quiz.body)).not.toContain('correctAnswers');

    const coursesBefore = await bed.models.courses.countDocuments({});
    const copy = await call('POST', `/api/courses/${course.id}/copy`, stranger.token);
    expect([copy.status, copy.body.message]).toEqual([403, CONTENT_MSG.courseAuthorsOnly]);
    expect(await bed.models.courses.countDocuments({})).toBe(coursesBefore);
    const own = await seedCourse(bed, { token: stranger.token, modules: [0] });
    const imported = await call('POST', '/api/blocks/import', stranger.token, {
      courseId: own.id,
      moduleId: own.modules[0].id,
      lessonIds: [course.modules[0].lessons[0].id],
    });
    expect([imported.status, imported.body.message]).toEqual([403, CONTENT_MSG.courseAuthorsOnly]);
    expect(await bed.models.blocks.countDocuments({ courseId: own.id, type: 'LESSON' })).toBe(0);
  });
});

describe('deleting a course learners worked in', () => {
  const internal = (courseId: string) =>
    api(bed.content.url, 'POST', `/internal/courses/${courseId}/learner-activity`, {
      headers: { 'x-internal-token': bed.content.ctx.config.INTERNAL_TOKEN },
    });
  const listed = async (token: string) =>
    (await call<CourseSummary[]>('GET', '/api/courses?limit=100', token)).body.map((c) => c.id);

  it('a curator’s delete archives it: hidden from the catalogue and learners, read-only to curators, deleted by an ADMIN', async () => {
    const { course } = await ownedCourse();
    await call('PATCH', `/api/courses/${course.id}`, bed.as.CURATOR.token, { status: 'published' });
    expect(await listed(bed.as.CANDIDATE.token)).toContain(course.id); // the catalogue page is now kept
    expect((await internal(course.id)).status).toBe(204);

    const archived = await call('DELETE', `/api/courses/${course.id}`, bed.as.CURATOR.token);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({
      archived: true,
      message: CONTENT_MSG.courseArchivedInstead,
      course: { id: course.id, archived: true, status: 'hidden', isPublished: false },
    });
    expect((await storedCourse(bed, course.id)).blocks).toHaveLength(2);
    expect(await listed(bed.as.CANDIDATE.token)).not.toContain(course.id);
    expect((await call('GET', `/api/courses/${course.id}`, bed.as.CANDIDATE.token)).status).toBe(404);
    expect(await listed(bed.as.CURATOR.token)).toContain(course.id);

    for (const [method, body] of [
      ['PATCH', { status: 'published' }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await call(method, `/api/courses/${course.id}`, bed.as.CURATOR.token, body);
      expect([answer.status, answer.body.message]).toEqual([403, CONTENT_MSG.courseArchived]);
    }
    expect((await call('DELETE', `/api/courses/${course.id}`, bed.as.ADMIN.token)).status).toBe(204);
    expect(await storedCourse(bed, course.id)).toEqual({ course: null, blocks: [], quizzes: [] });
  });

  it('a curator deletes a course nobody studied; an ADMIN deletes one learners studied', async () => {
    const quiet = await seedCourse(bed, { modules: [1] });
    expect((await call('DELETE', `/api/courses/${quiet.id}`, bed.as.CURATOR.token)).status).toBe(204);
    expect((await storedCourse(bed, quiet.id)).course).toBeNull();
    const studied = await seedCourse(bed, { title: uniqueTitle() });
    await internal(studied.id);
    expect((await call('DELETE', `/api/courses/${studied.id}`, bed.as.ADMIN.token)).status).toBe(204);
  });

  it('a learner starting a published course counts as progress; a curator starting it does not', async () => {
    const course = await seedCourse(bed, { status: 'published' });
    await call('POST', `/api/courses/${course.id}/start`, bed.as.CURATOR.token);
    expect((await storedCourse(bed, course.id)).course?.learnerActivity).toBe(false);
    await call('POST', `/api/courses/${course.id}/start`, bed.as.CLIENT.token);
    expect((await storedCourse(bed, course.id)).course?.learnerActivity).toBe(true);
  });

  it('the internal route needs the internal token and a known course', async () => {
    const { course } = await ownedCourse();
    expect((await api(bed.content.url, 'POST', `/internal/courses/${course.id}/learner-activity`)).status).toBe(403);
    expect((await internal('64b7f0c2a1b2c3d4e5f60718')).status).toBe(404);
  });
});
