import { dayOf, type ProgramPersonStatus, type ProgramReport } from '@portal/contracts';
import { clock, isDuplicateKey, op } from '@portal/service-kit';
import type { Types } from 'mongoose';
import type { ProgressModels } from '../models';
import type { ProgramDoc, ProgramMemberDoc, ProgramTallyDoc } from '../models/program';

/**
 * The report's figures, kept beside the members (`program_tallies`, one document per assignment and
 * department): every write of a member adds the difference it makes, so the report reads a few small
 * documents whatever the audience's size. The daily run counts them again from the members, which
 * also mends a difference lost to two writes of one member at the same moment.
 */

type TallyState = Pick<
  ProgramMemberDoc,
  'left' | 'department' | 'stagesCompleted' | 'currentStageKey' | 'currentDue' | 'earliestDue' | 'completedAt'
>;

/** What one member counts for, as paths of a tally document. */
function countsOf(m: TallyState | null): Map<string, number> {
  const counts = new Map<string, number>();
  if (!m || m.left) return counts;
  counts.set('assigned', 1);
  counts.set(`past.${m.stagesCompleted}`, 1);
  if (m.completedAt) {
    counts.set('completed', 1);
    return counts;
  }
  if (m.currentStageKey) {
    counts.set(`at.${m.currentStageKey}`, 1);
    if (m.currentDue) counts.set(`due.${m.currentStageKey}.${m.currentDue}`, 1);
  }
  if (m.earliestDue) counts.set(`early.${m.earliestDue}`, 1);
  return counts;
}

const tallyId = (assignmentId: string, department: string) => `${assignmentId}|${department}`;

/** Adds what these members' moves change (before → after; null for none) to their departments' tallies. */
export async function tallyMoves(
  models: ProgressModels,
  assignmentId: string,
  moves: ReadonlyArray<readonly [TallyState | null, TallyState | null]>,
): Promise<void> {
  const byDepartment = new Map<string, Map<string, number>>();
  const add = (m: TallyState | null, sign: number) => {
    if (!m || m.left) return;
    const diff = byDepartment.get(m.department) ?? new Map<string, number>();
    for (const [path, n] of countsOf(m)) diff.set(path, (diff.get(path) ?? 0) + sign * n);
    byDepartment.set(m.department, diff);
  };
  for (const [before, after] of moves) {
    add(before, -1);
    add(after, 1);
  }
  // One write per department (a batch holds a few): each is retried alone if it raced.
  await Promise.all(
    [...byDepartment].map(([department, diff]) => {
      const inc = Object.fromEntries([...diff].filter(([, n]) => n !== 0));
      if (!Object.keys(inc).length) return undefined;
      return onceMoreIfRaced(() =>
        models.programTallies.updateOne(
          { _id: tallyId(assignmentId, department) },
          { $inc: inc, $setOnInsert: { assignmentId, department } },
          { upsert: true },
        ),
      );
    }),
  );
}

/**
 * Runs an upsert again when another writer created the same tally document at the same moment (the
 * store answers E11000 to the second insert of an upsert): the document exists then, and the write
 * applies to it.
 */
async function onceMoreIfRaced<T>(write: () => Promise<T>): Promise<T | undefined> {
  try {
    return await write();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return write();
  }
}

/** Members read per round trip when the tallies are counted again. */
const RECOUNT_BATCH = 500;

/** Counts an assignment's tallies again from its members, and replaces them (the daily run). */
export async function recountTallies(models: ProgressModels, assignmentId: string): Promise<void> {
  const sums = new Map<string, Map<string, number>>();
  let after: Types.ObjectId | null = null;
  for (;;) {
    const batch: TallyState[] & Array<{ _id: Types.ObjectId }> = await models.programMembers
      .find(after ? { assignmentId, _id: op({ $gt: after }) } : { assignmentId }, {
        left: 1,
        department: 1,
        stagesCompleted: 1,
        currentStageKey: 1,
        currentDue: 1,
        earliestDue: 1,
        completedAt: 1,
      })
      .sort({ _id: 1 })
      .limit(RECOUNT_BATCH)
      .lean();
    for (const m of batch) {
      if (m.left) continue;
      const sum = sums.get(m.department) ?? new Map<string, number>();
      for (const [path, n] of countsOf(m)) sum.set(path, (sum.get(path) ?? 0) + n);
      sums.set(m.department, sum);
    }
    if (batch.length < RECOUNT_BATCH) break;
    after = batch[batch.length - 1]._id;
  }
  const docs = [...sums].map(([department, sum]) => {
    const doc: ProgramTallyDoc = {
      _id: tallyId(assignmentId, department),
      assignmentId,
      department,
      assigned: 0,
      completed: 0,
      at: {},
      past: {},
      due: {},
      early: {},
    };
    for (const [path, n] of sum) {
      const [field, key, day] = path.split('.');
      if (field === 'assigned' || field === 'completed') doc[field] = n;
      else if (field === 'due') doc.due[key] = { ...doc.due[key], [day]: n };
      else if (field === 'at' || field === 'past' || field === 'early') doc[field][key] = n;
    }
    return doc;
  });
  await Promise.all(
    docs.map((doc) => onceMoreIfRaced(() => models.programTallies.replaceOne({ _id: doc._id }, doc, { upsert: true }))),
  );
  await models.programTallies.deleteMany({ assignmentId, _id: op({ $nin: docs.map((d) => d._id) }) });
}

const sumOver = (records: Array<Record<string, number> | undefined>, keep: (key: string) => boolean = () => true) =>
  records.reduce((total, r) => total + Object.entries(r ?? {}).reduce((s, [k, n]) => (keep(k) ? s + n : s), 0), 0);

/** An assignment's tallies (of one department, if asked), with the totals every reader wants; one read. */
async function readTallies(models: ProgressModels, assignmentId: string, department?: string) {
  const today = dayOf(clock.now());
  const tallies = await models.programTallies
    .find(department !== undefined ? { assignmentId, department } : { assignmentId })
    .lean<ProgramTallyDoc[]>();
  const late = (day: string) => day < today;
  return {
    tallies,
    late,
    assigned: tallies.reduce((n, t) => n + (t.assigned ?? 0), 0),
    completed: tallies.reduce((n, t) => n + (t.completed ?? 0), 0),
    overdue: sumOver(
      tallies.map((t) => t.early),
      late,
    ),
  };
}

/** The report from the tallies: one read of the assignment's departments (or of one). */
export async function tallyReport(
  models: ProgressModels,
  assignmentId: string,
  program: ProgramDoc,
  department?: string,
): Promise<ProgramReport> {
  const { tallies, late, assigned, completed, overdue } = await readTallies(models, assignmentId, department);
  return {
    assignmentId,
    programId: String(program._id),
    title: program.title,
    assigned,
    completed,
    overdue,
    percent: assigned ? Math.round((completed / assigned) * 100) : 0,
    stages: program.stages.map((s, i) => ({
      key: s.key,
      title: s.title,
      current: sumOver(tallies.map((t) => ({ n: t.at?.[s.key] ?? 0 }))),
      completed: sumOver(
        tallies.map((t) => t.past),
        (k) => Number(k) > i,
      ),
      overdue: sumOver(
        tallies.map((t) => t.due?.[s.key]),
        late,
      ),
    })),
  };
}

/** How many people a filter of the report's people holds, from the tallies (a status or a stage, not both). */
export async function tallyTotal(
  models: ProgressModels,
  assignmentId: string,
  { department, status, stageKey }: { department?: string; status?: ProgramPersonStatus; stageKey?: string },
): Promise<number> {
  const { tallies, assigned, completed, overdue } = await readTallies(models, assignmentId, department);
  if (stageKey) return tallies.reduce((n, t) => n + (t.at?.[stageKey] ?? 0), 0);
  if (status === 'completed') return completed;
  if (status === 'overdue') return overdue;
  if (status === 'in_progress') return assigned - completed - overdue;
  return assigned;
}
