import { Types } from 'mongoose';
import { op } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { BankQuestionDoc } from '../models/bankQuestion';
import type { BlockDoc } from '../models/block';
import type { SnapshotDoc } from '../models/courseVersion';
import type { QuizDoc } from '../models/quiz';
import { byPosition } from '../presenters/block';
import {
  bankIndexSnapId,
  bankQuestionBodyOf,
  bankQuestionSnapId,
  lessonBodyOf,
  lessonSnapId,
  moduleSnapId,
  quizBodyOf,
  quizIdsOf,
  quizSnapId,
  type BankIndexBody,
  type CourseState,
  type LessonBody,
  type LessonEntry,
  type ModuleBody,
  type ModuleState,
} from './state';

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
