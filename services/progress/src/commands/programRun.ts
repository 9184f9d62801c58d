import { DUE_SOON_DAYS, addMonths, notificationLinks, programNotificationText } from '@portal/contracts';
import type { Types } from 'mongoose';
import { op } from '@portal/service-kit';
import type { PeopleClient } from '../clients/people';
import type { ProgramAssignmentDoc, ProgramDoc, ProgramMemberDoc } from '../models/program';
import { notifyOnce } from './notifications';
import { ENROL_BATCH, enrolAudience, settleMembers, type EnrolDeps } from './programEnrolment';
import { recountTallies } from './programTallies';
import { shiftDay } from './reminders';

export type ProgramRunDeps = EnrolDeps & { people: PeopleClient };

/** Program assignments read per round trip of the daily run. */
const ASSIGNMENT_BATCH = 50;

export interface ProgramRun {
  enrolled: number;
  dueSoon: number;
  overdue: number;
  newCycles: number;
}

/** Every program assignment, fifty at a time, in the order they were made. */
async function* everyAssignment(
  deps: ProgramRunDeps,
  filter: Record<string, unknown> = {},
): AsyncGenerator<ProgramAssignmentDoc> {
  let after: Types.ObjectId | null = null;
  for (;;) {
    const batch: ProgramAssignmentDoc[] = await deps.models.programAssignments
      .find(after ? { ...filter, _id: op({ $gt: after }) } : filter)
      .sort({ _id: 1 })
      .limit(ASSIGNMENT_BATCH)
      .lean<ProgramAssignmentDoc[]>();
    yield* batch;
    if (batch.length < ASSIGNMENT_BATCH) return;
    after = batch[batch.length - 1]._id;
  }
}

/**
 * «Через 3 дня срок этапа» and «этап просрочен» (the day after its deadline) to the people whose
 * current stage is due on that day: a hundred at a time, each at most once (the key holds the cycle,
 * the stage and the day, so two replicas or a second run tell nobody twice).
 */
async function remindStages(deps: ProgramRunDeps, kind: 'stage_due_soon' | 'stage_overdue', day: string): Promise<number> {
  let sent = 0;
  let after: Types.ObjectId | null = null;
  const programs = new Map<string, ProgramDoc | null>();
  for (;;) {
    const members: ProgramMemberDoc[] = await deps.models.programMembers
      .find({ currentDue: day, completedAt: null, left: false, ...(after ? { _id: op({ $gt: after }) } : {}) })
      .sort({ _id: 1 })
      .limit(ENROL_BATCH)
      .lean<ProgramMemberDoc[]>();
    for (const id of new Set(members.map((m) => m.programId))) {
      if (!programs.has(id)) programs.set(id, await deps.models.programs.findById(id).lean<ProgramDoc>());
    }
    const drafts = members.flatMap((m) => {
      const program = programs.get(m.programId);
      const stage = program?.stages.find((s) => s.key === m.currentStageKey);
      if (!program || !stage) return [];
      const { title, text } = programNotificationText(kind, {
        programTitle: program.title,
        stageTitle: stage.title,
        dueDate: day,
      });
      return [
        {
          userId: m.userId,
          email: m.email,
          fullName: m.fullName,
          kind,
          key: `${kind}|${m.assignmentId}|${m.userId}|${m.cycle}|${stage.key}|${day}`,
          title,
          text,
          link: notificationLinks.program(m.assignmentId),
        },
      ];
    });
    sent += (await notifyOnce(deps, drafts)).length;
    if (members.length < ENROL_BATCH) return sent;
    after = members[members.length - 1]._id;
  }
}

/**
 * A recurring program's people whose completion is `recurrenceMonths` old begin their next cycle
 * (settleMembers starts it), a hundred at a time.
 */
async function beginCycles(deps: ProgramRunDeps, assignment: ProgramAssignmentDoc, today: string): Promise<number> {
  const months = assignment.recurrenceMonths;
  if (!months) return 0;
  const program = await deps.models.programs.findById(assignment.programId).lean<ProgramDoc>();
  if (!program) return 0;
  // Completed on or before this day: due again today or earlier.
  const before = new Date(`${shiftDay(addMonths(today, -months), 1)}T00:00:00+03:00`);
  let begun = 0;
  for (;;) {
    const due = await deps.models.programMembers
      .find({ assignmentId: String(assignment._id), left: false, completedAt: op({ $ne: null, $lt: before }) })
      .limit(ENROL_BATCH)
      .lean<ProgramMemberDoc[]>();
    const settled = await settleMembers(deps, program, assignment, due);
    const moved = settled.filter((m, i) => m.cycle !== due[i].cycle).length;
    begun += moved;
    if (due.length < ENROL_BATCH || moved === 0) return begun;
  }
}

/**
 * The programs' part of the daily run: every assignment's audience gone through (new joiners
 * enrolled, leavers marked), recurring programs' next cycles begun, and the stage reminders of the day.
 */
export async function runProgramReminders(deps: ProgramRunDeps, today: string): Promise<ProgramRun> {
  const run: ProgramRun = { enrolled: 0, dueSoon: 0, overdue: 0, newCycles: 0 };
  // A deadline that passed overnight: those people are now «есть просрочка» (their other changes set it).
  await deps.models.programMembers.updateMany(
    { state: 'in_progress', earliestDue: op({ $lt: today }) },
    { $set: { state: 'overdue' } },
  );
  for await (const assignment of everyAssignment(deps)) {
    run.enrolled += (await enrolAudience(deps, assignment)).enrolled;
    run.newCycles += await beginCycles(deps, assignment, today);
    await recountTallies(deps.models, String(assignment._id));
  }
  run.dueSoon = await remindStages(deps, 'stage_due_soon', shiftDay(today, DUE_SOON_DAYS));
  run.overdue = await remindStages(deps, 'stage_overdue', shiftDay(today, -1));
  return run;
}

/** After a program is saved: every member of its assignments computed again, a hundred at a time. */
export async function recomputeProgram(deps: EnrolDeps, programId: string): Promise<number> {
  const program = await deps.models.programs.findById(programId).lean<ProgramDoc>();
  if (!program) return 0;
  const assignments = new Map<string, ProgramAssignmentDoc>();
  let after: Types.ObjectId | null = null;
  let settled = 0;
  for (;;) {
    const members: ProgramMemberDoc[] = await deps.models.programMembers
      .find({ programId, ...(after ? { _id: op({ $gt: after }) } : {}) })
      .sort({ _id: 1 })
      .limit(ENROL_BATCH)
      .lean<ProgramMemberDoc[]>();
    for (const id of new Set(members.map((m) => m.assignmentId))) {
      if (!assignments.has(id)) {
        const doc = await deps.models.programAssignments.findById(id).lean<ProgramAssignmentDoc>();
        if (doc) assignments.set(id, doc);
      }
    }
    for (const [id, assignment] of assignments) {
      settled += (
        await settleMembers(
          deps,
          program,
          assignment,
          members.filter((m) => m.assignmentId === id),
        )
      ).length;
    }
    if (members.length < ENROL_BATCH) return settled;
    after = members[members.length - 1]._id;
  }
}
