import type { ChangeKind, StructureChange, VersionDiff } from '@portal/contracts';
import type { Types } from 'mongoose';
import type { ContentModels } from '../models';
import { readContentBlocks } from '../presenters/block';
import { lessonsOfState, readSnapshots, type CourseState, type LessonBody } from './state';

/**
 * What differs from `older` to `newer`: modules, lessons and quizzes added, removed or changed, the
 * bank's questions, and the content blocks changed inside each changed lesson. Parts with the same
 * snapshot are the same, so only the changed lessons' content is read. `bodies`: lesson bodies
 * already in hand (the draft's), by snapshot id.
 */
export async function diffStates(
  models: ContentModels,
  courseId: Types.ObjectId | string,
  older: CourseState | null,
  newer: CourseState,
  bodies: Map<string, unknown> = new Map(),
): Promise<VersionDiff> {
  const modules: StructureChange[] = [];
  const oldModules = new Map((older?.modules ?? []).map((m) => [m.id, m]));
  const newModules = new Map(newer.modules.map((m) => [m.id, m]));
  for (const m of newer.modules) {
    const before = oldModules.get(m.id);
    if (!before) modules.push({ id: m.id, kind: 'added', title: m.body.title });
    else if (
      before.body.title !== m.body.title ||
      before.body.content !== m.body.content ||
      before.body.status !== m.body.status ||
      before.body.lessons.map((l) => l.id).join() !== m.body.lessons.map((l) => l.id).join()
    ) {
      modules.push({ id: m.id, kind: 'changed', title: m.body.title });
    }
  }
  for (const m of older?.modules ?? [])
    if (!newModules.has(m.id)) modules.push({ id: m.id, kind: 'removed', title: m.body.title });

  const oldLessons = older ? lessonsOfState(older) : new Map();
  const newLessons = lessonsOfState(newer);
  const lessons: StructureChange[] = [];
  const changedPairs: Array<{ id: string; from: string; to: string }> = [];
  for (const [id, { entry, module }] of newLessons) {
    const before = oldLessons.get(id);
    if (!before) lessons.push({ id, kind: 'added', title: entry.title, moduleId: module.id });
    else if (before.entry.snap !== entry.snap || before.module.id !== module.id) {
      lessons.push({ id, kind: 'changed', title: entry.title, moduleId: module.id });
      if (before.entry.snap !== entry.snap) changedPairs.push({ id, from: before.entry.snap, to: entry.snap });
    }
  }
  for (const [id, { entry, module }] of oldLessons) {
    if (!newLessons.has(id)) lessons.push({ id, kind: 'removed', title: entry.title, moduleId: module.id });
  }

  const quizzes: StructureChange[] = [];
  const oldQuizzes = older?.quizzes ?? new Map<string, string>();
  const quizSnaps = await readSnapshots<{ title: string }>(
    models,
    { courseId, kind: 'quiz' },
    [
      ...[...newer.quizzes].filter(([id, snap]) => oldQuizzes.get(id) !== snap).map(([, snap]) => snap),
      ...[...oldQuizzes].filter(([id]) => !newer.quizzes.has(id)).map(([, snap]) => snap),
    ].filter((snap) => !bodies.has(snap)),
  );
  const quizTitle = (snap: string) => ((bodies.get(snap) as { title?: string } | undefined) ?? quizSnaps.get(snap))?.title ?? '';
  for (const [id, snap] of newer.quizzes) {
    const before = oldQuizzes.get(id);
    if (before === snap) continue;
    quizzes.push({ id, kind: before ? 'changed' : 'added', title: quizTitle(snap) });
  }
  for (const [id, snap] of oldQuizzes) if (!newer.quizzes.has(id)) quizzes.push({ id, kind: 'removed', title: quizTitle(snap) });

  const oldBank = new Map((older?.bank?.body.questions ?? []).map((q) => [q.id, q.snap]));
  const newBank = new Map((newer.bank?.body.questions ?? []).map((q) => [q.id, q.snap]));
  const bank = { added: 0, removed: 0, changed: 0 };
  for (const [id, snap] of newBank) {
    const before = oldBank.get(id);
    if (!before) bank.added += 1;
    else if (before !== snap) bank.changed += 1;
  }
  for (const id of oldBank.keys()) if (!newBank.has(id)) bank.removed += 1;

  // The blocks inside each changed lesson, compared by their ids.
  const missing = changedPairs.flatMap((p) => [p.from, p.to]).filter((snap) => !bodies.has(snap));
  const read = await readSnapshots<LessonBody>(models, { courseId, kind: 'lesson' }, missing);
  const bodyOf = (snap: string) => (bodies.get(snap) as LessonBody | undefined) ?? read.get(snap);
  const blocks: VersionDiff['blocks'] = {};
  for (const pair of changedPairs) {
    const before = readContentBlocks(bodyOf(pair.from)?.content ?? '');
    const after = readContentBlocks(bodyOf(pair.to)?.content ?? '');
    const beforeById = new Map(before.map((b) => [b.id, JSON.stringify(b)]));
    const afterIds = new Set(after.map((b) => b.id));
    const changes: Array<{ id: string; kind: ChangeKind; type: string }> = [];
    for (const b of after) {
      const was = beforeById.get(b.id);
      if (was === undefined) changes.push({ id: b.id, kind: 'added', type: b.type });
      else if (was !== JSON.stringify(b)) changes.push({ id: b.id, kind: 'changed', type: b.type });
    }
    for (const b of before) if (!afterIds.has(b.id)) changes.push({ id: b.id, kind: 'removed', type: b.type });
    blocks[pair.id] = changes;
  }

  const count = (kind: ChangeKind) => lessons.filter((l) => l.kind === kind).length;
  return {
    modules,
    lessons,
    quizzes,
    bank,
    blocks,
    counts: { added: count('added'), removed: count('removed'), changed: count('changed') },
  };
}

export const hasChanges = (diff: VersionDiff): boolean =>
  diff.modules.length + diff.lessons.length + diff.quizzes.length + diff.bank.added + diff.bank.removed + diff.bank.changed > 0;
