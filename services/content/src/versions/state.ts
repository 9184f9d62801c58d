import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Types } from 'mongoose';
import { op } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { BankQuestionDoc } from '../models/bankQuestion';
import type { BlockDoc } from '../models/block';
import type { CourseVersionDoc, SnapshotDoc, SnapshotKind } from '../models/courseVersion';
import type { QuizDoc } from '../models/quiz';
import { readContentBlocks } from '../presenters/block';

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

/** Every lesson of a state, with its module. */
export function lessonsOfState(state: CourseState): Map<string, { entry: LessonEntry; module: ModuleState; position: number }> {
  const out = new Map<string, { entry: LessonEntry; module: ModuleState; position: number }>();
  for (const module of state.modules)
    module.body.lessons.forEach((entry, position) => out.set(entry.id, { entry, module, position }));
  return out;
}
