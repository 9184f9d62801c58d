import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Types } from 'mongoose';
import { op } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { BankQuestionDoc } from '../models/bankQuestion';
import type { BlockDoc } from '../models/block';
import type { CourseVersionDoc, SnapshotDoc, SnapshotKind } from '../models/courseVersion';
import type { QuizDoc } from '../models/quiz';
import { byPosition, readContentBlocks } from '../presenters/block';

/**
 * A course's content as a tree of snapshots (docs/decisions/093): modules in order, each listing its
 * lessons; the quizzes they hold; the bank's index. Every snapshot is addressed by a hash of what it
 * holds, so two states share every part that did not change. The published versions are such
 * states, and so is the draft, built from the live records without writing anything.
 */

/** A lesson as a version keeps it (its content included). */
export interface LessonBody {
  title: string;
  description: string;
  content: string;
  status: BlockDoc['status'];
  generated: boolean;
  blocksCount: number;
  hasQuiz: boolean;
  hasScorm: boolean;
  /** Kept with the snapshot, not hashed: what the lesson's ETag and dates were when this content was first kept. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A lesson's line in its module: what the outline shows, without content. */
export interface LessonEntry {
  id: string;
  snap: string;
  title: string;
  status: BlockDoc['status'];
  generated: boolean;
  blocksCount: number;
  hasQuiz: boolean;
  hasScorm: boolean;
  quizIds: string[];
  createdAt: Date;
  /** Set by a publish that required learners to take the lesson again: completions before it do not count. */
  retakeSince: Date | null;
}

export interface ModuleBody {
  title: string;
  /** A module's description (its record's content). */
  content: string;
  status: BlockDoc['status'];
  generated: boolean;
  createdAt: Date;
  lessons: LessonEntry[];
}

export interface BankIndexBody {
  questions: Array<{ id: string; snap: string; tags: string[] }>;
}

export interface ModuleState {
  id: string;
  snap: string;
  body: ModuleBody;
}

/** One state of a course: a published version, or the draft. */
export interface CourseState {
  modules: ModuleState[];
  /** Quiz id → snapshot id. */
  quizzes: Map<string, string>;
  bank: { snap: string; body: BankIndexBody } | null;
}

/* ------------------------------------------------------------------ hashing */

/** JSON with keys sorted at every level, dates as ISO strings: the same value always hashes the same. */
export function canonical(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object') {
    const maybeId = value as { toHexString?: () => string };
    if (typeof maybeId.toHexString === 'function') return JSON.stringify(maybeId.toHexString());
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const snapIdOf = (kind: SnapshotKind, sourceId: string, hashed: unknown): string =>
  createHash('sha1')
    .update(`${kind}\u0000${sourceId}\u0000${canonical(hashed)}`)
    .digest('hex');

const lessonHashed = (b: LessonBody) => ({
  title: b.title,
  description: b.description,
  content: b.content,
  status: b.status,
  generated: b.generated,
});

export const lessonSnapId = (id: string, body: LessonBody) => snapIdOf('lesson', id, lessonHashed(body));
export const moduleSnapId = (id: string, body: ModuleBody) => snapIdOf('module', id, body);

/** What a quiz version holds: everything a learner's attempt and its grading read. */
export type QuizBody = Pick<
  QuizDoc,
  'title' | 'description' | 'courseId' | 'questions' | 'settings' | 'draws' | 'shuffleSeed'
> & {
  version: number;
  createdBy: string | null;
  generated: boolean;
  createdAt: Date;
  updatedAt: Date;
};
const quizHashed = (q: QuizBody) => ({
  title: q.title,
  description: q.description,
  courseId: q.courseId,
  questions: q.questions,
  settings: q.settings,
  draws: q.draws ?? [],
  shuffleSeed: q.shuffleSeed ?? null,
});
export const quizSnapId = (id: string, body: QuizBody) => snapIdOf('quiz', id, quizHashed(body));

export type BankQuestionBody = Pick<BankQuestionDoc, 'tags' | 'question' | 'createdBy'> & { version: number; createdAt: Date };
export const bankQuestionSnapId = (id: string, body: BankQuestionBody) =>
  snapIdOf('bankQuestion', id, { tags: body.tags, question: body.question });
export const bankIndexSnapId = (courseId: string, body: BankIndexBody) => snapIdOf('bankIndex', courseId, body);

/* ------------------------------------------------------------------ bodies from live records */

export const lessonBodyOf = (l: BlockDoc): LessonBody => {
  const blocks = readContentBlocks(l.content);
  return {
    title: l.title,
    description: l.description ?? '',
    content: l.content ?? '',
    status: l.status,
    generated: !!l.generated,
    blocksCount: l.blocksCount ?? blocks.length,
    hasQuiz: l.hasQuiz ?? blocks.some((b) => b.type === 'quiz'),
    hasScorm: l.hasScorm ?? blocks.some((b) => b.type === 'scorm'),
    version: l.version ?? 0,
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  };
};

export const quizIdsOf = (content: string): string[] => [
  ...new Set(readContentBlocks(content).flatMap((b) => (b.type === 'quiz' && b.content.quizId ? [b.content.quizId] : []))),
];

export const quizBodyOf = (q: QuizDoc): QuizBody => ({
  title: q.title,
  description: q.description ?? '',
  courseId: q.courseId ?? null,
  questions: q.questions,
  settings: q.settings,
  draws: q.draws ?? [],
  shuffleSeed: q.shuffleSeed,
  version: q.version ?? 0,
  createdBy: q.createdBy ?? null,
  generated: !!q.generated,
  createdAt: q.createdAt,
  updatedAt: q.updatedAt,
});

export const bankQuestionBodyOf = (q: BankQuestionDoc): BankQuestionBody => ({
  tags: q.tags ?? [],
  question: q.question,
  createdBy: q.createdBy ?? null,
  version: q.version ?? 0,
  createdAt: q.createdAt,
});

/* ------------------------------------------------------------------ reading a version */

/** A version's tree: its document and its modules' snapshots (two reads). */
export async function readVersionState(models: ContentModels, version: CourseVersionDoc): Promise<CourseState> {
  const [moduleSnaps, bankSnap] = await Promise.all([
    version.modules.length
      ? models.snapshots
          .find({ ...scopeFilter({ courseId: version.courseId, kind: 'module' }), _id: op({ $in: version.modules }) })
          .lean<SnapshotDoc[]>()
      : Promise.resolve([] as SnapshotDoc[]),
    version.bank ? models.snapshots.findById(version.bank).lean<SnapshotDoc>() : Promise.resolve(null),
  ]);
  const byId = new Map(moduleSnaps.map((s) => [s._id, s]));
  return {
    modules: version.modules.flatMap((snap) => {
      const s = byId.get(snap);
      return s ? [{ id: s.sourceId, snap, body: s.body as unknown as ModuleBody }] : [];
    }),
    quizzes: new Map(version.quizzes.map((q) => [q.id, q.snap])),
    bank: version.bank && bankSnap ? { snap: version.bank, body: bankSnap.body as unknown as BankIndexBody } : null,
  };
}

/** Where snapshots are looked for: a course's, of one kind when given. */
export interface SnapshotScope {
  courseId: Types.ObjectId | string;
  kind?: SnapshotKind;
}

/** A snapshot's body, frozen: shared by every reader of the process, so nobody may change it. */
const frozen = <T>(value: T): T => {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
};

/**
 * Snapshot bodies already read, by id. A snapshot is addressed by what it holds and never changes, so
 * a kept body is never stale, whichever course or replica asks (docs/decisions/093-course-versions.md).
 */
const keptSnapshots = new LRUCache<string, object>({
  max: 20_000,
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (body) => JSON.stringify(body).length + 1,
});

/**
 * Snapshots by id: those kept in this process, and the rest in one read. One id is read by its id
 * alone; several within their course (and kind), whose equality the store answers from its index, so
 * FerretDB never filters every course's snapshots for an `$in` of ids. The bodies are frozen.
 */
export async function readSnapshots<T>(models: ContentModels, scope: SnapshotScope, ids: string[]): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const kept = keptSnapshots.get(id);
    if (kept) found.set(id, kept as T);
    else missing.push(id);
  }
  if (!missing.length) return found;
  const docs =
    missing.length === 1
      ? [await models.snapshots.findById(missing[0]).lean<SnapshotDoc>()].filter((d): d is SnapshotDoc => !!d)
      : await models.snapshots.find({ ...scopeFilter(scope), _id: op({ $in: missing }) }).lean<SnapshotDoc[]>();
  for (const doc of docs) {
    const body = frozen(doc.body as object);
    keptSnapshots.set(doc._id, body);
    found.set(doc._id, body as T);
  }
  return found;
}

export const scopeFilter = ({ courseId, kind }: SnapshotScope) => ({
  courseId: new Types.ObjectId(String(courseId)),
  ...(kind ? { kind } : {}),
});

/* ------------------------------------------------------------------ the draft */

/** The draft as a state, with the snapshot documents a publish of it would add. */
export interface DraftBuild {
  state: CourseState;
  /** Snapshots the published base does not already hold (a publish writes them; duplicates are ignored). */
  fresh: Array<Omit<SnapshotDoc, 'courseId'>>;
  /** Bodies of the lessons read from the live records (the ones that may have changed since the base). */
  lessonBodies: Map<string, LessonBody>;
}

/** Lessons written this long before the base was read count as unchanged (clocks of two replicas may differ). */
const CLOCK_MARGIN_MS = 5_000;

const OUTLINE_FIELDS = {
  type: 1,
  moduleId: 1,
  title: 1,
  position: 1,
  status: 1,
  generated: 1,
  blocksCount: 1,
  hasQuiz: 1,
  hasScorm: 1,
  createdAt: 1,
  updatedAt: 1,
} as const;

/**
 * The draft (the live records) as a state. Lessons not written since the base version was read keep
 * its snapshots without their content being read; the others are read and hashed. `retake`: lessons
 * a publish marks as to be taken again (at `now`).
 */
export async function buildDraft(
  models: ContentModels,
  courseId: Types.ObjectId,
  base: { state: CourseState; publishedAt: Date } | null,
  retake: { ids: Set<string>; at: Date } | null = null,
): Promise<DraftBuild> {
  const [modules, lessons] = await Promise.all([
    models.blocks.find({ courseId, type: 'MODULE' }).lean<BlockDoc[]>(),
    models.blocks.find({ courseId, type: 'LESSON' }).select(OUTLINE_FIELDS).lean<BlockDoc[]>(),
  ]);
  const baseEntries = new Map<string, LessonEntry>();
  for (const m of base?.state.modules ?? []) for (const e of m.body.lessons) baseEntries.set(e.id, e);
  const since = base ? base.publishedAt.getTime() - CLOCK_MARGIN_MS : Infinity;
  const unchanged = (l: BlockDoc) => baseEntries.has(String(l._id)) && new Date(l.updatedAt).getTime() < since;

  const toRead = lessons.filter((l) => !unchanged(l)).map((l) => l._id);
  const full = toRead.length ? await models.blocks.find({ _id: op({ $in: toRead }) }).lean<BlockDoc[]>() : [];
  const lessonBodies = new Map(full.map((l) => [String(l._id), lessonBodyOf(l)]));

  const fresh: DraftBuild['fresh'] = [];
  const known = new Set<string>();
  for (const m of base?.state.modules ?? []) {
    known.add(m.snap);
    for (const e of m.body.lessons) known.add(e.snap);
  }
  for (const snap of base?.state.quizzes.values() ?? []) known.add(snap);
  const add = (doc: Omit<SnapshotDoc, 'courseId'>) => {
    if (known.has(doc._id)) return;
    known.add(doc._id);
    fresh.push(doc);
  };

  const entryOf = (l: BlockDoc): LessonEntry => {
    const id = String(l._id);
    const previous = baseEntries.get(id);
    const body = lessonBodies.get(id);
    const retakeSince = retake?.ids.has(id) ? retake.at : (previous?.retakeSince ?? null);
    if (!body) return { ...previous!, title: l.title, status: l.status, retakeSince };
    const snap = lessonSnapId(id, body);
    add({ _id: snap, kind: 'lesson', sourceId: id, body: body as unknown as Record<string, unknown> });
    return {
      id,
      snap,
      title: body.title,
      status: body.status,
      generated: body.generated,
      blocksCount: body.blocksCount,
      hasQuiz: body.hasQuiz,
      hasScorm: body.hasScorm,
      quizIds: quizIdsOf(body.content),
      createdAt: l.createdAt,
      retakeSince,
    };
  };

  const lessonsOf = new Map<string, BlockDoc[]>();
  for (const l of lessons) {
    const key = String(l.moduleId);
    lessonsOf.set(key, [...(lessonsOf.get(key) ?? []), l]);
  }
  const moduleStates: ModuleState[] = [...modules].sort(byPosition).map((m) => {
    const id = String(m._id);
    const body: ModuleBody = {
      title: m.title,
      content: m.content ?? '',
      status: m.status,
      generated: !!m.generated,
      createdAt: m.createdAt,
      lessons: (lessonsOf.get(id) ?? []).sort(byPosition).map(entryOf),
    };
    const snap = moduleSnapId(id, body);
    add({ _id: snap, kind: 'module', sourceId: id, body: body as unknown as Record<string, unknown> });
    return { id, snap, body };
  });

  // The quizzes the lessons hold, and the bank: few records, read whole.
  const quizIds = [...new Set(moduleStates.flatMap((m) => m.body.lessons.flatMap((e) => e.quizIds)))].filter((id) =>
    /^[0-9a-f]{24}$/i.test(id),
  );
  const [quizzes, bank] = await Promise.all([
    quizIds.length ? models.quizzes.find({ _id: op({ $in: quizIds }) }).lean<QuizDoc[]>() : Promise.resolve([] as QuizDoc[]),
    models.bank
      .find({ courseId: String(courseId) })
      .sort({ _id: 1 })
      .lean<BankQuestionDoc[]>(),
  ]);
  const quizState = new Map<string, string>();
  for (const q of quizzes) {
    const body = quizBodyOf(q);
    const snap = quizSnapId(String(q._id), body);
    add({ _id: snap, kind: 'quiz', sourceId: String(q._id), body: body as unknown as Record<string, unknown> });
    quizState.set(String(q._id), snap);
  }
  let bankState: CourseState['bank'] = null;
  if (bank.length) {
    const questions = bank.map((q) => {
      const body = bankQuestionBodyOf(q);
      const snap = bankQuestionSnapId(String(q._id), body);
      if (!base?.state.bank?.body.questions.some((b) => b.snap === snap)) {
        add({ _id: snap, kind: 'bankQuestion', sourceId: String(q._id), body: body as unknown as Record<string, unknown> });
      }
      return { id: String(q._id), snap, tags: body.tags };
    });
    const body: BankIndexBody = { questions };
    const snap = bankIndexSnapId(String(courseId), body);
    if (snap !== base?.state.bank?.snap) {
      add({ _id: snap, kind: 'bankIndex', sourceId: String(courseId), body: body as unknown as Record<string, unknown> });
    }
    bankState = { snap, body };
  }
  return { state: { modules: moduleStates, quizzes: quizState, bank: bankState }, fresh, lessonBodies };
}

/** Every lesson of a state, with its module. */
export function lessonsOfState(state: CourseState): Map<string, { entry: LessonEntry; module: ModuleState; position: number }> {
  const out = new Map<string, { entry: LessonEntry; module: ModuleState; position: number }>();
  for (const module of state.modules)
    module.body.lessons.forEach((entry, position) => out.set(entry.id, { entry, module, position }));
  return out;
}
