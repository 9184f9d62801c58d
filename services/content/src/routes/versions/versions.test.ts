import { BSON } from 'mongodb';
import { VERSION_MSG, type CourseOutline, type CourseVersionSummary, type DraftState, type VersionDiff } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { newQuestion } from '@portal/quiz-engine';
import { basedOnStored, seedCourse, startContent, waitForVersion, type ContentTestBed } from '../../testing';

/**
 * Course versions (docs/decisions/093): learners read the published version while authors edit the
 * draft; publishing, discarding, restoring, comparing and pruning, over the real store.
 */
let bed: ContentTestBed;
beforeAll(async () => {
  bed = await startContent();
});
afterAll(() => bed.close());

const curator = () => bed.as.CURATOR.token;
const learner = () => bed.as.CLIENT.token;
const internal = () => ({ 'x-internal-token': bed.content.ctx.config.INTERNAL_TOKEN });

const call = async <T = any>(method: string, path: string, token = curator(), body?: unknown) =>
  api<T>(bed.content.url, method, path, {
    token,
    body: method === 'PATCH' || method === 'PUT' ? await basedOnStored(bed, path, body) : body,
  });

const text = (id: string, value: string) => ({ id, type: 'text', content: { text: value } });
const lessonText = async (lessonId: string, token = learner()) => {
  const answer = await call<{ content: string }>('GET', `/api/blocks/${lessonId}`, token);
  return answer.status === 200
    ? (JSON.parse(answer.body.content) as Array<{ content: { text?: string } }>).map((b) => b.content.text)
    : answer.status;
};
const outlineTitles = async (courseId: string, token = learner()) =>
  (await call<CourseOutline>('GET', `/api/courses/${courseId}/outline`, token)).body.modules.flatMap((m) =>
    m.lessons.map((l) => l.title),
  );

const draft = async (courseId: string) => (await call<DraftState>('GET', `/api/courses/${courseId}/draft`)).body;
const publish = (courseId: string, basedOn: number | null, summary = 'Правки', retakeLessonIds: string[] = []) =>
  call<CourseVersionSummary & { message?: string }>('POST', `/api/courses/${courseId}/versions`, curator(), {
    summary,
    basedOn,
    retakeLessonIds,
  });

/** A published course of one module with `lessons` lessons, each holding one text block, and its first version taken. */
async function versionedCourse(lessons = 2) {
  const course = await seedCourse(bed, { modules: [lessons], status: 'published' });
  const ids = course.modules[0].lessons.map((l) => l.id);
  for (const [i, id] of ids.entries())
    await call('PATCH', `/api/blocks/${id}`, curator(), { content: [text(`b${i}`, `Текст ${i}`)] });
  // The first learner begins: the progress service says so, and the course's first version is taken.
  const began = await api(bed.content.url, 'POST', `/internal/courses/${course.id}/learner-activity`, { headers: internal() });
  expect(began.status).toBe(204);
  await waitForVersion(bed, course.id);
  return { course, ids, moduleId: course.modules[0].id };
}

describe('draft and published', () => {
  it('a course nobody has begun has no versions: edits reach learners at once, and the draft says so', async () => {
    const course = await seedCourse(bed, { modules: [1], status: 'published' });
    const lessonId = course.modules[0].lessons[0].id;
    await call('PATCH', `/api/blocks/${lessonId}`, curator(), { content: [text('a', 'Сразу видно')] });
    expect(await lessonText(lessonId)).toEqual(['Сразу видно']);
    expect(await draft(course.id)).toMatchObject({ versioned: false, publishedVersion: null, hasChanges: false });
  });

  it('after the first learner, a learner never sees a draft block, lesson, quiz or bank question; the author does', async () => {
    const { course, ids, moduleId } = await versionedCourse();
    expect(await draft(course.id)).toMatchObject({ versioned: true, publishedVersion: 1, hasChanges: false });

    // The author changes a lesson, adds a lesson holding a new quiz, and adds a bank question.
    await call('PATCH', `/api/blocks/${ids[0]}`, curator(), { content: [text('b0', 'Черновой текст')] });
    const quiz = await call('POST', '/api/quizzes', curator(), {
      title: 'Новый тест',
      courseId: course.id,
      questions: [newQuestion('single_choice', 'q1', 0)],
    });
    expect(quiz.status).toBe(201);
    const added = await call('POST', '/api/blocks', curator(), {
      courseId: course.id,
      moduleId,
      status: 'published',
      title: 'Новый урок',
    });
    await call('PATCH', `/api/blocks/${added.body.id}`, curator(), {
      content: [{ id: 'qz', type: 'quiz', content: { quizId: quiz.body.id, questionsCount: 1 } }],
    });
    const bankAnswer = await call('POST', `/api/courses/${course.id}/bank`, curator(), {
      tags: ['черновик'],
      question: { type: 'single_choice', question: 'Вопрос черновика', options: ['Да', 'Нет'], correctAnswers: [0] },
    });
    expect(bankAnswer.status).toBe(201);

    // The learner keeps the published version: text, outline, quiz.
    expect(await lessonText(ids[0])).toEqual(['Текст 0']);
    expect(await outlineTitles(course.id)).not.toContain('Новый урок');
    expect(await lessonText(added.body.id)).toBe(404);
    expect((await call('GET', `/api/quizzes/${quiz.body.id}`, learner())).status).toBe(404);
    const full = await call('GET', `/api/courses/${course.id}`, learner());
    expect(JSON.stringify(full.body)).not.toContain('Черновой текст');
    expect(JSON.stringify((await call('GET', `/api/blocks/course/${course.id}`, learner())).body)).not.toContain(
      'Черновой текст',
    );
    // The internal quiz read (an attempt's start) serves the published version: the new quiz is not in it.
    const internalQuiz = await api(bed.content.url, 'GET', `/internal/quizzes/${quiz.body.id}`, { headers: internal() });
    expect(internalQuiz.body.courseVersion).toBeNull();

    // The author reads the draft.
    expect(await lessonText(ids[0], curator())).toEqual(['Черновой текст']);
    expect(await outlineTitles(course.id, curator())).toContain('Новый урок');

    const state = await draft(course.id);
    expect(state.hasChanges).toBe(true);
    expect(state.diff.counts).toEqual({ added: 1, removed: 0, changed: 1 });
    expect(state.diff.lessons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: ids[0], kind: 'changed' }),
        expect.objectContaining({ id: added.body.id, kind: 'added', title: 'Новый урок' }),
      ]),
    );
    expect(state.diff.quizzes).toEqual([expect.objectContaining({ id: quiz.body.id, kind: 'added', title: 'Новый тест' })]);
    expect(state.diff.bank).toEqual({ added: 1, removed: 0, changed: 0 });
    expect(state.diff.blocks[ids[0]]).toEqual([{ id: 'b0', kind: 'changed', type: 'text' }]);

    // Published: the learner now sees all of it, and the quiz is read from version 2.
    const published = await publish(course.id, 1, 'Новый урок с тестом');
    expect(published.status).toBe(201);
    expect(published.body).toMatchObject({
      number: 2,
      summary: 'Новый урок с тестом',
      current: true,
      counts: { added: 1, changed: 1, removed: 0 },
    });
    expect(await lessonText(ids[0])).toEqual(['Черновой текст']);
    expect(await outlineTitles(course.id)).toContain('Новый урок');
    expect((await call('GET', `/api/quizzes/${quiz.body.id}`, learner())).status).toBe(200);
    const fromVersion = await api(bed.content.url, 'GET', `/internal/quizzes/${quiz.body.id}`, { headers: internal() });
    expect(fromVersion.body).toMatchObject({ courseVersion: 2, lessonId: added.body.id, courseId: course.id });
    expect(await draft(course.id)).toMatchObject({ publishedVersion: 2, hasChanges: false });
  });

  it('a quiz edited in the draft keeps its published questions for learners, and a draw comes from the published bank', async () => {
    const { course, ids } = await versionedCourse(1);
    const quiz = await call('POST', '/api/quizzes', curator(), {
      title: 'Тест',
      courseId: course.id,
      questions: [{ ...newQuestion('single_choice', 'q1', 0), question: 'Старый вопрос' }],
      draws: [{ tag: 'т', count: 1 }],
    });
    await call('POST', `/api/courses/${course.id}/bank`, curator(), {
      tags: ['т'],
      question: { type: 'single_choice', question: 'Банк: старый', options: ['Да', 'Нет'], correctAnswers: [0] },
    });
    await call('PATCH', `/api/blocks/${ids[0]}`, curator(), {
      content: [{ id: 'qz', type: 'quiz', content: { quizId: quiz.body.id, questionsCount: 2 } }],
    });
    expect((await publish(course.id, 1, 'Тест')).status).toBe(201);

    await call('PATCH', `/api/quizzes/${quiz.body.id}`, curator(), {
      title: 'Тест',
      questions: [{ ...newQuestion('single_choice', 'q1', 0), question: 'Новый вопрос' }],
      draws: [{ tag: 'т', count: 1 }],
    });
    const bank = await call<{ data: Array<{ id: string }> }>('GET', `/api/courses/${course.id}/bank`);
    await call('PUT', `/api/courses/${course.id}/bank/${bank.body.data[0].id}`, curator(), {
      tags: ['т'],
      question: { type: 'single_choice', question: 'Банк: новый', options: ['Да', 'Нет'], correctAnswers: [0] },
    });
    const asLearner = await call('GET', `/api/quizzes/${quiz.body.id}`, learner());
    expect(JSON.stringify(asLearner.body)).toContain('Старый вопрос');
    expect(JSON.stringify(asLearner.body)).not.toContain('Новый вопрос');
    const started = await api(bed.content.url, 'GET', `/internal/quizzes/${quiz.body.id}?drawSeed=00112233aabbccdd`, {
      headers: internal(),
    });
    const questions = (started.body.questions as Array<{ question: string }>).map((q) => q.question);
    expect(questions).toEqual(['Старый вопрос', 'Банк: старый']);
    expect(started.body.courseVersion).toBe(2);
  });
});

describe('publishing', () => {
  it('a publish from a stale view, or of nothing, is refused and changes nothing', async () => {
    const { course, ids } = await versionedCourse(1);
    expect((await publish(course.id, 1)).body.message).toBe(VERSION_MSG.nothingToPublish);
    await call('PATCH', `/api/blocks/${ids[0]}`, curator(), { content: [text('b0', 'Второй')] });
    const stale = await publish(course.id, 0);
    expect(stale.status).toBe(412);
    expect(stale.body.message).toBe(VERSION_MSG.stalePublished);
    expect((await publish(course.id, 1, '')).status).toBe(400);
    expect((await call('GET', `/api/courses/${course.id}/versions`)).body.total).toBe(1);
    // Only the authors: another curator, a learner.
    const other = await api(bed.content.url, 'POST', `/api/courses/${course.id}/versions`, {
      token: bed.as.MANAGER.token,
      body: { summary: 'x', basedOn: 1 },
    });
    expect(other.status).toBe(403);
    expect((await call('GET', `/api/courses/${course.id}/draft`, learner())).status).toBe(403);
  });

  it('two publishes from the same version at once: one lands, the other is told it is stale', async () => {
    const { course, ids } = await versionedCourse(1);
    await call('PATCH', `/api/blocks/${ids[0]}`, curator(), { content: [text('b0', 'Гонка')] });
    const answers = await Promise.all([publish(course.id, 1, 'А'), publish(course.id, 1, 'Б')]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 412]);
    const history = await call<{ data: CourseVersionSummary[] }>('GET', `/api/courses/${course.id}/versions`);
    expect(history.body.data.map((v) => v.number)).toEqual([2, 1]);
  });

  it('a publish under concurrent edits is a consistent state: every edit is either wholly in the version or in the next draft', async () => {
    const { course, ids } = await versionedCourse(6);
    const edit = (id: string, i: number) =>
      call('PATCH', `/api/blocks/${id}`, curator(), { content: [text(`b${i}`, `Правка ${i}`)] });
    // One edit lands first, so the publish always has something to take, whichever way the race runs.
    await edit(ids[0], 0);
    const edits = ids.slice(1).map((id, i) => edit(id, i + 1));
    const published = await Promise.all([publish(course.id, 1, 'Во время правок'), ...edits]);
    expect([201, 409]).toContain(published[0].status);
    if (published[0].status === 409) expect(published[0].body.message).toBe(VERSION_MSG.busy);
    // Whatever the version holds, the draft after it differs exactly by the edits it did not take.
    const texts = await Promise.all(ids.map((id) => lessonText(id)));
    const state = await draft(course.id);
    const changed = new Set(state.diff.lessons.map((l) => l.id));
    ids.forEach((id, i) => {
      expect(texts[i]).toEqual(changed.has(id) ? [`Текст ${i}`] : [`Правка ${i}`]);
    });
    if (state.hasChanges) expect((await publish(course.id, published[0].status === 201 ? 2 : 1)).status).toBe(201);
    expect((await Promise.all(ids.map((id) => lessonText(id)))).flat()).toEqual(ids.map((_, i) => `Правка ${i}`));
  });
});

describe('the published pointer', () => {
  it('a pointer put back by an overlapping write of the course is set right on the next read of the draft', async () => {
    const { course, ids } = await versionedCourse(1);
    await call('PATCH', `/api/blocks/${ids[0]}`, curator(), { content: [text('b0', 'Вторая')] });
    expect((await publish(course.id, 1)).status).toBe(201);
    // A course write that read the document before the publish writes it back with the old pointer.
    const { ObjectId } = await import('mongodb');
    const stored = await bed.models.courses.findById(course.id).lean();
    await bed.models.courses.updateOne(
      { _id: new ObjectId(course.id) },
      { $set: { 'published.number': 1, updatedAt: new Date(new Date(stored!.updatedAt).getTime() + 1) } },
      { timestamps: false },
    );
    expect(await lessonText(ids[0])).toEqual(['Текст 0']);
    expect((await draft(course.id)).publishedVersion).toBe(2);
    expect(await lessonText(ids[0])).toEqual(['Вторая']);
    await call('PATCH', `/api/blocks/${ids[0]}`, curator(), { content: [text('b0', 'Третья')] });
    expect((await publish(course.id, 2)).status).toBe(201);
  });
});

describe('discard, history, compare and restore', () => {
  it('«Отменить изменения» brings the draft back to the published version, and the editor’s stale copy is refused', async () => {
    const { course, ids, moduleId } = await versionedCourse(2);
    await call('PATCH', `/api/blocks/${ids[0]}`, curator(), { content: [text('b0', 'Неудачно')] });
    const removed = await call('DELETE', `/api/blocks/${ids[1]}`);
    expect(removed.status).toBeLessThan(300);
    await call('POST', '/api/blocks', curator(), { courseId: course.id, moduleId, status: 'published', title: 'Лишний' });
    const before = await call<{ version: number }>('GET', `/api/blocks/${ids[0]}`);

    const discarded = await call<DraftState>('POST', `/api/courses/${course.id}/draft/discard`, curator(), { basedOn: 1 });
    expect(discarded.status).toBe(200);
    expect(discarded.body.hasChanges).toBe(false);
    expect(await lessonText(ids[0], curator())).toEqual(['Текст 0']);
    expect(await lessonText(ids[1], curator())).toEqual(['Текст 1']);
    expect(await outlineTitles(course.id, curator())).not.toContain('Лишний');
    // An editor holding the record before the discard is told its copy is stale.
    const stale = await api(bed.content.url, 'PATCH', `/api/blocks/${ids[0]}`, {
      token: curator(),
      body: { content: [text('b0', 'Поверх')], version: before.body.version },
    });
    expect(stale.status).toBe(412);
    expect((await call('POST', `/api/courses/${course.id}/draft/discard`, curator(), { basedOn: 1 })).body.message).toBe(
      VERSION_MSG.nothingToDiscard,
    );
  });

  it('versions are listed, read as learners saw them, compared, and any of them restored as the draft', async () => {
    const { course, ids, moduleId } = await versionedCourse(2);
    await call('PATCH', `/api/blocks/${ids[0]}`, curator(), {
      content: [text('b0', 'Вторая редакция'), text('nb', 'Новый блок')],
    });
    expect((await publish(course.id, 1, 'Вторая')).status).toBe(201);
    await call('DELETE', `/api/blocks/${ids[1]}`);
    const third = await call('POST', '/api/blocks', curator(), {
      courseId: course.id,
      moduleId,
      status: 'published',
      title: 'Третий урок',
    });
    expect((await publish(course.id, 2, 'Третья')).status).toBe(201);

    const history = await call<{ data: CourseVersionSummary[]; total: number }>(
      'GET',
      `/api/courses/${course.id}/versions?limit=2`,
    );
    expect(history.body.total).toBe(3);
    expect(history.body.data.map((v) => [v.number, v.summary, v.current])).toEqual([
      [3, 'Третья', true],
      [2, 'Вторая', false],
    ]);
    expect(history.body.data[0].publishedBy.name).toBeTruthy();

    const v1 = await call('GET', `/api/courses/${course.id}/versions/1`);
    expect(v1.body.modules[0].lessons.map((l: { id: string }) => l.id)).toEqual(ids);
    const oldLesson = await call('GET', `/api/courses/${course.id}/versions/1/lessons/${ids[0]}`);
    expect(JSON.parse(oldLesson.body.content)[0].content.text).toBe('Текст 0');
    expect((await call('GET', `/api/courses/${course.id}/versions/1/lessons/${third.body.id}`)).status).toBe(404);
    expect((await call('GET', `/api/courses/${course.id}/versions/9`)).body.message).toBe(VERSION_MSG.notFound);
    expect((await call('GET', `/api/courses/${course.id}/versions/abc`)).status).toBe(400);

    const diff = await call<VersionDiff>('GET', `/api/courses/${course.id}/versions/compare?from=1&to=3`);
    expect(diff.status).toBe(200);
    expect(diff.body.lessons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: ids[0], kind: 'changed' }),
        expect.objectContaining({ id: ids[1], kind: 'removed' }),
        expect.objectContaining({ id: third.body.id, kind: 'added', title: 'Третий урок' }),
      ]),
    );
    expect(diff.body.blocks[ids[0]]).toEqual(
      expect.arrayContaining([
        { id: 'b0', kind: 'changed', type: 'text' },
        { id: 'nb', kind: 'added', type: 'text' },
      ]),
    );
    expect(diff.body.modules).toEqual([expect.objectContaining({ id: moduleId, kind: 'changed' })]);

    // Version 1 as the draft: learners keep version 3 until it is published.
    const restored = await call<DraftState>('POST', `/api/courses/${course.id}/versions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.hasChanges).toBe(true);
    expect(await outlineTitles(course.id, curator())).not.toContain('Третий урок');
    expect(await lessonText(ids[1], curator())).toEqual(['Текст 1']);
    expect(await lessonText(ids[0], curator())).toEqual(['Текст 0']);
    expect(await outlineTitles(course.id)).toContain('Третий урок');
    expect((await publish(course.id, 3, 'Назад к первой')).status).toBe(201);
    expect(await lessonText(ids[0])).toEqual(['Текст 0']);
    // The restored content is the first version's: compared, nothing differs.
    const same = await call<VersionDiff>('GET', `/api/courses/${course.id}/versions/compare?from=1&to=4`);
    expect(same.body.counts).toEqual({ added: 0, removed: 0, changed: 0 });
  });
});

describe('storage', () => {
  const bytesOf = async (courseId: string) => {
    const { ObjectId } = await import('mongodb');
    const id = new ObjectId(courseId);
    const [versions, snapshots] = await Promise.all([
      bed.models.versions.find({ courseId: id }).lean(),
      bed.models.snapshots.find({ courseId: id }).lean(),
    ]);
    const size = (docs: object[]) => docs.reduce((sum, d) => sum + BSON.calculateObjectSize(d as BSON.Document), 0);
    return { versions: size(versions), snapshots: size(snapshots), count: versions.length };
  };

  it('a version stores only what changed: 15 versions of a 2 × 10 course stay within 3× one version (the bench: 50 of 50 × 20 × 10)', async () => {
    const course = await seedCourse(bed, { modules: [10, 10], status: 'published' });
    const lessons = course.modules.flatMap((m) => m.lessons.map((l) => l.id));
    const blocks = (i: number, tag: string) =>
      Array.from({ length: 10 }, (_, b) => text(`b${b}`, `Урок ${i}, блок ${b}: ${tag} `.padEnd(300, 'текст ')));
    await Promise.all(lessons.map((id, i) => call('PATCH', `/api/blocks/${id}`, curator(), { content: blocks(i, 'исходный') })));
    await api(bed.content.url, 'POST', `/internal/courses/${course.id}/learner-activity`, { headers: internal() });
    await waitForVersion(bed, course.id);
    const one = await bytesOf(course.id);
    for (let v = 2; v <= 15; v += 1) {
      const id = lessons[v % lessons.length];
      await call('PATCH', `/api/blocks/${id}`, curator(), { content: blocks(v, `правка ${v}`) });
      expect((await publish(course.id, v - 1, `Правка ${v}`)).status).toBe(201);
    }
    const all = await bytesOf(course.id);
    expect(all.count).toBe(15);
    expect(all.versions + all.snapshots).toBeLessThanOrEqual(3 * (one.versions + one.snapshots));
  }, 90_000);

  it('pruning keeps the newest, the current and every pinned version, and drops what nothing refers to', async () => {
    const { course, ids } = await versionedCourse(1);
    for (let v = 2; v <= 5; v += 1) {
      await call('PATCH', `/api/blocks/${ids[0]}`, curator(), { content: [text('b0', `Редакция ${v}`)] });
      expect((await publish(course.id, v - 1, `Редакция ${v}`)).status).toBe(201);
    }
    // An attempt is started on version 2 (the progress service reads its quiz with pin=1).
    const { ObjectId } = await import('mongodb');
    await bed.models.versions.updateOne({ courseId: new ObjectId(course.id), number: 2 }, { $set: { pinned: true } });
    const before = await bytesOf(course.id);

    expect((await call('POST', `/api/courses/${course.id}/versions/prune`, curator(), { keep: 0 })).status).toBe(400);
    const pruned = await call('POST', `/api/courses/${course.id}/versions/prune`, curator(), { keep: 1 });
    expect(pruned.status).toBe(200);
    expect(pruned.body.removed.sort()).toEqual([1, 3, 4]);
    const history = await call<{ data: CourseVersionSummary[] }>('GET', `/api/courses/${course.id}/versions`);
    expect(history.body.data.map((v) => [v.number, v.pinned, v.current])).toEqual([
      [5, false, true],
      [2, true, false],
    ]);
    const after = await bytesOf(course.id);
    expect(after.snapshots).toBeLessThan(before.snapshots);
    // What is kept still reads whole.
    const kept = await call('GET', `/api/courses/${course.id}/versions/2/lessons/${ids[0]}`);
    expect(JSON.parse(kept.body.content)[0].content.text).toBe('Редакция 2');
    expect(await lessonText(ids[0])).toEqual(['Редакция 5']);
  });

  it('an attempt’s start pins the version it is taken on', async () => {
    const { course, ids } = await versionedCourse(1);
    const quiz = await call('POST', '/api/quizzes', curator(), {
      title: 'Т',
      courseId: course.id,
      questions: [newQuestion('single_choice', 'q1', 0)],
    });
    await call('PATCH', `/api/blocks/${ids[0]}`, curator(), {
      content: [{ id: 'qz', type: 'quiz', content: { quizId: quiz.body.id, questionsCount: 1 } }],
    });
    expect((await publish(course.id, 1)).status).toBe(201);
    const started = await api(bed.content.url, 'POST', '/internal/attempt-starts', {
      headers: internal(),
      body: {
        quizId: quiz.body.id,
        courseId: course.id,
        lessonId: ids[0],
        drawSeed: '00112233aabbccdd',
        learner: { id: '0123456789abcdef01234567', role: 'CANDIDATE' },
      },
    });
    expect(started.status).toBe(200);
    const history = await call<{ data: CourseVersionSummary[] }>('GET', `/api/courses/${course.id}/versions`);
    expect(history.body.data.find((v) => v.number === 2)?.pinned).toBe(true);
  });
});
