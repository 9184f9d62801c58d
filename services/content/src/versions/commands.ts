import { Types } from 'mongoose';
import { VERSION_MSG, type PublishVersionInput } from '@portal/contracts';
import { coalesced, conflict, HttpError, isDuplicateKey, op, updateEach, type Principal } from '@portal/service-kit';
import { loadEditableCourse } from '../commands/courses';
import { inTouchTurn, nextUpdatedAt, touchCourse } from '../commands/touch';
import type { ContentModels } from '../models';
import type { CourseDoc } from '../models/course';
import type { CourseVersionDoc, SnapshotDoc } from '../models/courseVersion';
import { diffStates, hasChanges } from './diff';
import { publishedViews, type PublishedView } from './published';
import { bodiesBySnap, countsOf, draftState, latestVersion, versionOf, withCurrentPointer } from './reads';
import { buildDraft, type DraftBuild } from './draft';
import { readSnapshots, scopeFilter, type BankIndexBody, type BankQuestionBody, type LessonBody, type QuizBody } from './state';

/** The summary of the version taken when the first learner begins. */
const FIRST_VERSION_SUMMARY = 'Первая версия: курс начали изучать';

const stale = () => new HttpError(412, VERSION_MSG.stalePublished, 'stale_version');

/** How many times a publish reads the draft again when an edit landed while it read. */
const PUBLISH_TRIES = 3;

async function insertSnapshots(models: ContentModels, courseId: Types.ObjectId, fresh: DraftBuild['fresh']): Promise<void> {
  if (!fresh.length) return;
  const existing = new Set(
    (
      await models.snapshots
        .find({ ...scopeFilter({ courseId }), _id: op({ $in: fresh.map((s) => s._id) }) }, { _id: 1 })
        .lean<Array<{ _id: string }>>()
    ).map((s) => s._id),
  );
  const missing = fresh.filter((s) => !existing.has(s._id)).map((s) => ({ ...s, courseId }));
  // In slices, so that one write never carries a whole large course.
  for (let i = 0; i < missing.length; i += 200) {
    try {
      await models.snapshots.insertMany(missing.slice(i, i + 200), { ordered: false });
    } catch (err) {
      // Another publish stored the same content meanwhile: the same id holds the same bytes.
      const errors = (err as { writeErrors?: Array<{ code?: number; err?: { code?: number } }> }).writeErrors;
      if (!isDuplicateKey(err) && !(errors?.length && errors.every((e) => (e.code ?? e.err?.code) === 11000))) throw err;
    }
  }
}

export interface PublishOutcome {
  version: CourseVersionDoc;
  course: CourseDoc;
}

/**
 * Makes the draft the next version. Atomic against edits: the draft is read between two reads of the
 * course's updatedAt, which every write moves (touchCourse); when an edit landed meanwhile it is read
 * again. Atomic against another publish: the version's number is unique, so of two publishes from
 * the same base one lands and the other is refused as stale.
 */
export async function publishDraft(
  models: ContentModels,
  actor: Principal,
  course: CourseDoc,
  input: Pick<PublishVersionInput, 'summary' | 'basedOn' | 'retakeLessonIds'>,
  { first = false }: { first?: boolean } = {},
): Promise<PublishOutcome> {
  if (course.status !== 'published') throw conflict(VERSION_MSG.notPublished);
  const views = publishedViews(models);
  for (let attempt = 0; attempt < PUBLISH_TRIES; attempt += 1) {
    const current = await withCurrentPointer(models, (await models.courses.findById(course._id).lean<CourseDoc>()) ?? course);
    if ((current.published?.number ?? null) !== input.basedOn) throw stale();
    const base = await views.current(current);
    const at = new Date();
    const retake = new Set(input.retakeLessonIds);
    const build = await buildDraft(
      models,
      current._id,
      base ? { state: base.state, publishedAt: base.version.publishedAt } : null,
      retake.size ? { ids: retake, at } : null,
    );
    const diff = await diffStates(models, current._id, base?.state ?? null, build.state, bodiesBySnap(build));
    const changedLessons = new Set(diff.lessons.filter((l) => l.kind === 'changed').map((l) => l.id));
    if (input.retakeLessonIds.some((id) => !changedLessons.has(id))) throw conflict(VERSION_MSG.retakeNotChanged);
    if (base && !hasChanges(diff)) {
      if (first) return { version: base.version, course: current };
      throw conflict(VERSION_MSG.nothingToPublish);
    }
    const after = await models.courses.findById(course._id).select({ updatedAt: 1 }).lean<Pick<CourseDoc, 'updatedAt'>>();
    if (!after || new Date(after.updatedAt).getTime() !== new Date(current.updatedAt).getTime()) continue;

    await insertSnapshots(models, current._id, build.fresh);
    const latest = await latestVersion(models, current._id);
    const number = (latest?.number ?? 0) + 1;
    if ((latest?.number ?? null) !== (base?.version.number ?? null)) throw stale();
    let version: CourseVersionDoc;
    try {
      const created = await models.versions.create({
        courseId: current._id,
        number,
        summary: input.summary,
        publishedBy: { id: actor.id, name: actor.fullName },
        publishedAt: at,
        modules: build.state.modules.map((m) => m.snap),
        quizzes: [...build.state.quizzes].map(([id, snap]) => ({ id, snap })),
        bank: build.state.bank?.snap ?? null,
        counts: diff.counts,
        retakeLessonIds: input.retakeLessonIds,
        pinned: false,
      });
      version = created.toObject<CourseVersionDoc>();
    } catch (err) {
      if (isDuplicateKey(err)) throw stale();
      throw err;
    }
    const published = { number, at, counts: countsOf(build.state) };
    const updatedAt = await inTouchTurn(models, current._id, async () => {
      const now = await models.courses.findById(current._id).select({ updatedAt: 1 }).lean<Pick<CourseDoc, 'updatedAt'>>();
      const next = nextUpdatedAt(now?.updatedAt ?? current.updatedAt);
      await models.courses.updateOne({ _id: current._id }, { $set: { published, updatedAt: next } }, { timestamps: false });
      return next;
    });
    return { version, course: { ...current, published, updatedAt } };
  }
  throw conflict(VERSION_MSG.busy);
}

/**
 * The first version of a course, taken when its first learner begins (the progress service says so):
 * from then on edits go to the draft. Two learners beginning at once take it once.
 */
export async function takeFirstVersion(models: ContentModels, courseId: Types.ObjectId): Promise<void> {
  // Learners beginning at once, on any replica, take it one at a time; the later ones find it taken.
  await coalesced(models.courses.db, `first-version:${String(courseId)}`, async () => {
    const course = await models.courses.findById(courseId).lean<CourseDoc>();
    if (!course || course.published || course.status !== 'published') return;
    const system = { id: 'system', fullName: 'Система', role: 'ADMIN', email: '' } as Principal;
    try {
      await publishDraft(
        models,
        system,
        course,
        { summary: FIRST_VERSION_SUMMARY, basedOn: null, retakeLessonIds: [] },
        { first: true },
      );
    } catch (err) {
      // Another replica took it, or edits kept moving: the next learner's beginning takes it.
      if (!(err instanceof HttpError)) throw err;
    }
  });
}

/**
 * Writes a state into the live records (the draft): «Отменить изменения» with the published version,
 * «Восстановить как черновик» with any. Only what differs is written; every written record's version
 * moves, so an editor holding the old draft is told its copy is stale.
 */
export async function applyState(models: ContentModels, course: CourseDoc, target: PublishedView): Promise<void> {
  const courseId = course._id;
  const build = await buildDraft(models, courseId, { state: target.state, publishedAt: target.version.publishedAt });
  const draftLessons = new Map<string, { snap: string; moduleId: string; position: number }>();
  for (const m of build.state.modules)
    m.body.lessons.forEach((e, position) => draftLessons.set(e.id, { snap: e.snap, moduleId: m.id, position }));
  const draftModules = new Map(build.state.modules.map((m, position) => [m.id, { m, position }]));

  const toWrite = [...target.lessons].filter(([id, at]) => {
    const now = draftLessons.get(id);
    return !now || now.snap !== at.entry.snap || now.moduleId !== at.module.id || now.position !== at.position;
  });
  const bodies = await readSnapshots<LessonBody>(
    models,
    { courseId, kind: 'lesson' },
    toWrite.map(([, at]) => at.entry.snap),
  );
  const writes: Parameters<typeof updateEach>[1][number][] = [];
  target.state.modules.forEach((m, position) => {
    const now = draftModules.get(m.id);
    if (
      now &&
      now.position === position &&
      now.m.body.title === m.body.title &&
      now.m.body.content === m.body.content &&
      now.m.body.status === m.body.status
    )
      return;
    writes.push({
      updateOne: {
        filter: { _id: new Types.ObjectId(m.id) },
        update: {
          $set: {
            type: 'MODULE',
            courseId,
            moduleId: null,
            title: m.body.title,
            content: m.body.content,
            position,
            status: m.body.status,
          },
          $inc: { version: 1 },
          $setOnInsert: { description: '', createdAt: new Date(m.body.createdAt) },
        },
        upsert: true,
      },
    });
  });
  for (const [id, at] of toWrite) {
    const body = bodies.get(at.entry.snap);
    if (!body) continue;
    writes.push({
      updateOne: {
        filter: { _id: new Types.ObjectId(id) },
        update: {
          $set: {
            type: 'LESSON',
            courseId,
            moduleId: new Types.ObjectId(at.module.id),
            title: body.title,
            description: body.description,
            content: body.content,
            position: at.position,
            status: body.status,
            blocksCount: body.blocksCount,
            hasQuiz: body.hasQuiz,
            hasScorm: body.hasScorm,
            generated: body.generated,
          },
          $inc: { version: 1 },
          $setOnInsert: { createdAt: new Date(body.createdAt) },
        },
        upsert: true,
      },
    });
  }
  const gone = [
    ...[...draftLessons.keys()].filter((id) => !target.lessons.has(id)),
    ...[...draftModules.keys()].filter((id) => !target.state.modules.some((m) => m.id === id)),
  ];
  await updateEach(models.blocks, writes);
  if (gone.length)
    await models.blocks.bulkWrite([
      { deleteMany: { filter: { _id: op({ $in: gone.map((id) => new Types.ObjectId(id)) }), courseId } } },
    ]);

  // Quizzes whose draft differs from the target's.
  const quizWrites = [...target.state.quizzes].filter(([id, snap]) => build.state.quizzes.get(id) !== snap);
  const quizBodies = await readSnapshots<QuizBody>(
    models,
    { courseId, kind: 'quiz' },
    quizWrites.map(([, snap]) => snap),
  );
  for (const [id, snap] of quizWrites) {
    const q = quizBodies.get(snap);
    if (!q) continue;
    await models.quizzes.updateOne(
      { _id: new Types.ObjectId(id) },
      {
        $set: {
          title: q.title,
          description: q.description,
          courseId: q.courseId,
          questions: q.questions,
          settings: q.settings,
          draws: q.draws ?? [],
        },
        $inc: { version: 1 },
        $setOnInsert: { createdBy: q.createdBy, shuffleSeed: q.shuffleSeed, createdAt: new Date(q.createdAt) },
      },
      { upsert: true },
    );
  }

  // The bank: the target's questions back as they were, questions it did not have removed.
  const targetBank = new Map((target.state.bank?.body.questions ?? []).map((q) => [q.id, q]));
  const liveBank = new Map((build.state.bank?.body.questions ?? []).map((q) => [q.id, q.snap]));
  const bankWrites = [...targetBank.values()].filter((q) => liveBank.get(q.id) !== q.snap);
  const bankBodies = await readSnapshots<BankQuestionBody>(
    models,
    { courseId, kind: 'bankQuestion' },
    bankWrites.map((q) => q.snap),
  );
  const bankOps: Parameters<typeof updateEach>[1][number][] = bankWrites.flatMap((q) => {
    const body = bankBodies.get(q.snap);
    if (!body) return [];
    return [
      {
        updateOne: {
          filter: { _id: new Types.ObjectId(q.id) },
          update: {
            $set: { courseId: String(courseId), tags: body.tags, question: body.question },
            $inc: { version: 1 },
            $setOnInsert: { createdBy: body.createdBy, createdAt: new Date(body.createdAt) },
          },
          upsert: true,
        },
      },
    ];
  });
  const removed = [...liveBank.keys()].filter((id) => !targetBank.has(id));
  await updateEach(models.bank, bankOps);
  if (removed.length)
    await models.bank.bulkWrite([
      { deleteMany: { filter: { _id: op({ $in: removed.map((id) => new Types.ObjectId(id)) }), courseId: String(courseId) } } },
    ]);
  await touchCourse(models, courseId);
}

/** «Отменить изменения»: the draft becomes the published version again. */
export async function discardDraft(
  models: ContentModels,
  actor: Principal,
  rawId: unknown,
  basedOn: number | null,
): Promise<CourseDoc> {
  const course = await withCurrentPointer(models, await loadEditableCourse(models, actor, rawId));
  if ((course.published?.number ?? null) !== basedOn) throw stale();
  if (!course.published) throw conflict(VERSION_MSG.notVersioned);
  const view = await versionOf(models, course._id, course.published.number);
  const state = await draftState(models, course);
  if (!state.hasChanges) throw conflict(VERSION_MSG.nothingToDiscard);
  await applyState(models, course, view);
  return course;
}

/** «Восстановить как черновик»: any version becomes the draft (learners keep the published one). */
export async function restoreVersion(
  models: ContentModels,
  actor: Principal,
  rawId: unknown,
  number: number,
): Promise<CourseDoc> {
  const course = await loadEditableCourse(models, actor, rawId);
  const view = await versionOf(models, course._id, number);
  await applyState(models, course, view);
  return course;
}

/**
 * Keeps the newest `keep` versions, the current one and every pinned one (an attempt was started on
 * it), and deletes the snapshots no kept version refers to.
 */
export async function pruneVersions(models: ContentModels, course: CourseDoc, keep: number): Promise<{ removed: number[] }> {
  const versions = await models.versions
    .find({ courseId: course._id }, { number: 1, pinned: 1, modules: 1, quizzes: 1, bank: 1 })
    .sort({ number: -1 })
    .lean<CourseVersionDoc[]>();
  const kept = versions.filter((v, i) => i < keep || v.pinned || v.number === course.published?.number);
  const removed = versions.filter((v) => !kept.includes(v)).map((v) => v.number);
  await inTouchTurn(models, course._id, () =>
    models.courses.updateOne({ _id: course._id }, { $set: { versionRetention: keep } }, { timestamps: false }),
  );
  if (!removed.length) return { removed };
  await models.versions.deleteMany({ courseId: course._id, number: op({ $in: removed }) });

  const reachable = new Set<string>();
  const moduleIds = [...new Set(kept.flatMap((v) => v.modules))];
  const moduleSnaps = moduleIds.length
    ? await models.snapshots
        .find(
          { ...scopeFilter({ courseId: course._id, kind: 'module' }), _id: op({ $in: moduleIds }) },
          { 'body.lessons.snap': 1 },
        )
        .lean<SnapshotDoc[]>()
    : [];
  for (const id of moduleIds) reachable.add(id);
  for (const m of moduleSnaps)
    for (const l of (m.body as { lessons?: Array<{ snap: string }> }).lessons ?? []) reachable.add(l.snap);
  for (const v of kept) for (const q of v.quizzes) reachable.add(q.snap);
  const banks = [...new Set(kept.flatMap((v) => (v.bank ? [v.bank] : [])))];
  for (const [snap, body] of await readSnapshots<BankIndexBody>(models, { courseId: course._id, kind: 'bankIndex' }, banks)) {
    reachable.add(snap);
    for (const q of body.questions) reachable.add(q.snap);
  }
  await models.snapshots.deleteMany({ courseId: course._id, _id: op({ $nin: [...reachable] }) });
  return { removed };
}

/** An attempt was started on the version: it is kept by every pruning from now on. */
export async function pinVersion(
  models: ContentModels,
  courseId: Types.ObjectId,
  number: number,
  view?: PublishedView,
): Promise<void> {
  if (view?.version.pinned) return;
  await models.versions.updateOne({ courseId, number, pinned: false }, { $set: { pinned: true } });
  if (view) view.version.pinned = true;
}
