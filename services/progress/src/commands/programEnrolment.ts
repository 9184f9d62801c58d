import { randomUUID } from 'node:crypto';
import { PROGRAM_MSG, notificationLinks, programNotificationText } from '@portal/contracts';
import { clock, conflict, isDuplicateKey, onePer, op, updateEach, VersionedCache, type Principal } from '@portal/service-kit';
import { endsAudience, type PeopleClient } from '../clients/people';
import {
  PROGRAM_ASSIGNMENTS_VERSION,
  type ProgramAssignmentDoc,
  type ProgramDoc,
  type ProgramMemberDoc,
} from '../models/program';
import { assignedTo, audiencePage } from './assignmentAudience';
import type { ProgressDeps } from './deps';
import { notifyOnce, type NotificationDraft } from './notifications';
import { issueProgramCertificate } from './programCertificates';
import {
  closingStage,
  courseDoneTimes,
  firstCycle,
  memberFields,
  nextCycle,
  statesOf,
  type MemberFields,
} from './programMembers';
import { tallyMoves } from './programTallies';

/**
 * Who is in a program assignment, and where each of them stands. People are enrolled when it is made
 * (a job goes through the audience), by the daily run (new joiners; those who left are marked), and
 * at once when they open their programs or touch a course of one, so a person is never missed.
 * Their stages then move with the events that change them (`settleMembers`).
 */

export type EnrolDeps = Pick<ProgressDeps, 'models' | 'audit' | 'logger' | 'mailer' | 'portalLink' | 'certificateIssuer'>;

/** People read, and members written, per round trip. */
export const ENROL_BATCH = 100;

type Person = Pick<Principal, 'id' | 'fullName' | 'email' | 'department'>;

const assignedKey = (a: ProgramAssignmentDoc, userId: string, cycle: number) =>
  `program_assigned|${String(a._id)}|${userId}|${cycle}`;
const openedKey = (m: Pick<ProgramMemberDoc, 'assignmentId' | 'userId' | 'cycle'>, stageKey: string) =>
  `stage_opened|${m.assignmentId}|${m.userId}|${m.cycle}|${stageKey}`;

const stageTitle = (program: ProgramDoc, key: string | null) => program.stages.find((s) => s.key === key)?.title ?? '';

/**
 * The side effects of members' new states, after they are stored: «Открыт этап» to those whose next
 * stage opened, and the program's certificate to those who completed it (each at most once: unique
 * notification keys, and one certificate per completion).
 */
async function announce(
  deps: EnrolDeps,
  program: ProgramDoc,
  changed: Array<{
    member: ProgramMemberDoc;
    before: Pick<ProgramMemberDoc, 'stagesCompleted' | 'cycle'> | null;
    fields: MemberFields;
  }>,
): Promise<void> {
  const drafts: NotificationDraft[] = [];
  for (const { member, before, fields } of changed) {
    const opened = before && before.cycle === member.cycle && fields.stagesCompleted > before.stagesCompleted;
    if (opened && fields.currentStageKey) {
      const { title, text } = programNotificationText('stage_opened', {
        programTitle: program.title,
        stageTitle: stageTitle(program, fields.currentStageKey),
        dueDate: fields.currentDue,
      });
      drafts.push({
        userId: member.userId,
        email: member.email,
        fullName: member.fullName,
        kind: 'stage_opened',
        key: openedKey(member, fields.currentStageKey),
        title,
        text,
        link: notificationLinks.program(member.assignmentId),
      });
    }
    if (fields.completedAt && program.certificate && !member.certificateNumber) {
      await issueProgramCertificate(deps, program, member, fields.completedAt).catch((err: Error) =>
        deps.logger.error({ member: String(member._id), err: err.message }, 'program certificate not issued'),
      );
    }
  }
  if (drafts.length) await notifyOnce(deps, drafts);
}

/**
 * Computes the stages of these members again (one read of completions for all of them) and stores
 * what changed; a recurring program's member who is due again begins the next cycle.
 */
export async function settleMembers(
  deps: EnrolDeps,
  program: ProgramDoc,
  assignment: ProgramAssignmentDoc,
  members: ProgramMemberDoc[],
): Promise<ProgramMemberDoc[]> {
  if (!members.length) return [];
  const now = clock.now();
  const bases = members.map((m) => {
    const next = assignment.recurrenceMonths ? nextCycle(m, assignment.recurrenceMonths, now) : null;
    return { member: next ? { ...m, ...next } : m, next };
  });
  const done = await courseDoneTimes(
    deps.models,
    program,
    bases.map(({ member }) => ({ userId: member.userId, validFrom: member.validFrom })),
  );
  const settled = bases.map(({ member, next }) => ({
    member,
    next,
    fields: memberFields(statesOf(program, member, done.get(member.userId) ?? new Map(), now)),
  }));
  await updateEach(
    deps.models.programMembers,
    settled.map(({ member, next, fields }) => ({
      updateOne: { filter: { _id: member._id }, update: { $set: { ...(next ?? {}), ...fields, updatedAt: now } } },
    })),
  );
  await tallyMoves(
    deps.models,
    String(assignment._id),
    settled.map(({ member, fields }, i) => [members[i], { ...member, ...fields }]),
  );
  await announce(
    deps,
    program,
    settled.map(({ member, fields }, i) => ({ member, before: members[i], fields })),
  );
  return settled.map(({ member, fields }) => ({ ...member, ...fields }));
}

/**
 * Enrols these people (a page of the audience) in the assignment: the ones new to it get their stages
 * at once, counting what they completed before (within the program's validity), and «Вам назначена
 * программа»; those marked as left are back. Answers every one of them as a member.
 */
export async function enrolPeople(
  deps: EnrolDeps,
  program: ProgramDoc,
  assignment: ProgramAssignmentDoc,
  people: Person[],
  pass = '',
): Promise<ProgramMemberDoc[]> {
  if (!people.length) return [];
  const assignmentId = String(assignment._id);
  const ids = people.map((p) => p.id);
  const existing = await deps.models.programMembers.find({ assignmentId, userId: op({ $in: ids }) }).lean<ProgramMemberDoc[]>();
  const known = new Set(existing.map((m) => m.userId));
  const fresh = people.filter((p) => !known.has(p.id));
  const now = clock.now();
  const cycle = firstCycle(assignment);
  const done = await courseDoneTimes(
    deps.models,
    program,
    fresh.map((p) => ({ userId: p.id, validFrom: cycle.validFrom })),
  );
  const docs = fresh.map((p) => ({
    assignmentId,
    programId: assignment.programId,
    userId: p.id,
    fullName: p.fullName,
    email: p.email,
    department: p.department ?? '',
    ...cycle,
    extensions: {},
    certificateNumber: null,
    left: false,
    enrolPass: pass,
    updatedAt: now,
    ...memberFields(statesOf(program, { startDate: cycle.startDate, extensions: {} }, done.get(p.id) ?? new Map(), now)),
  }));
  if (docs.length) {
    try {
      await deps.models.programMembers.insertMany(docs, { ordered: false });
    } catch (err) {
      // Another replica (or request) enrolled some of them at the same moment: theirs stand.
      if (!isDuplicateKey(err) && !(err as { writeErrors?: unknown }).writeErrors) throw err;
    }
  }
  if (existing.length) {
    // Their names and departments as the directory has them now; back in the audience if they had left.
    await updateEach(
      deps.models.programMembers,
      existing.map((m) => {
        const p = people.find((x) => x.id === m.userId)!;
        return {
          updateOne: {
            filter: { _id: m._id },
            update: {
              $set: { fullName: p.fullName, email: p.email, department: p.department ?? '', left: false, enrolPass: pass },
            },
          },
        };
      }),
    );
  }
  const members = await deps.models.programMembers.find({ assignmentId, userId: op({ $in: ids }) }).lean<ProgramMemberDoc[]>();
  const created = members.filter((m) => !known.has(m.userId));
  await tallyMoves(deps.models, assignmentId, [
    ...created.map((m) => [null, m] as const),
    ...existing.map((m) => [m, members.find((x) => x.userId === m.userId) ?? null] as const),
  ]);
  await tellAssigned(deps, program, assignment, created);
  await announce(
    deps,
    program,
    created.map((member) => ({ member, before: null, fields: member })),
  );
  return members;
}

async function tellAssigned(deps: EnrolDeps, program: ProgramDoc, assignment: ProgramAssignmentDoc, members: ProgramMemberDoc[]) {
  if (!members.length) return;
  await notifyOnce(
    deps,
    members.map((m) => {
      const { title, text, note } = programNotificationText('program_assigned', {
        programTitle: program.title,
        stageTitle: stageTitle(program, m.currentStageKey),
        dueDate: m.currentDue,
        message: assignment.message,
        curatorName: assignment.createdBy.fullName,
      });
      return {
        userId: m.userId,
        email: m.email,
        fullName: m.fullName,
        kind: 'program_assigned' as const,
        key: assignedKey(assignment, m.userId, m.cycle),
        title,
        text,
        note,
        link: notificationLinks.program(String(assignment._id)),
      };
    }),
  );
}

/**
 * Goes through the whole audience of an assignment, a hundred at a time: new people are enrolled,
 * everyone found is stamped with this pass, and members the pass did not find are marked as left.
 */
export async function enrolAudience(
  deps: EnrolDeps & { people: PeopleClient },
  assignment: ProgramAssignmentDoc,
): Promise<{ enrolled: number }> {
  const program = await deps.models.programs.findById(assignment.programId).lean<ProgramDoc>();
  if (!program) return { enrolled: 0 };
  const pass = randomUUID();
  let enrolled = 0;
  for (let page = 1; ; page += 1) {
    const batch = await audiencePage(deps.people, assignment, page, ENROL_BATCH);
    enrolled += (await enrolPeople(deps, program, assignment, batch.data, pass)).length;
    if (!batch.data.length || endsAudience(batch, page, ENROL_BATCH)) break;
  }
  const assignmentId = String(assignment._id);
  // Those the pass did not find have left the audience: no longer counted.
  for (;;) {
    const gone = await deps.models.programMembers
      .find({ assignmentId, enrolPass: op({ $ne: pass }), left: false })
      .limit(ENROL_BATCH)
      .lean<ProgramMemberDoc[]>();
    if (!gone.length) break;
    await deps.models.programMembers.updateMany({ _id: op({ $in: gone.map((m) => m._id) }) }, { $set: { left: true } });
    await tallyMoves(
      deps.models,
      assignmentId,
      gone.map((m) => [m, { ...m, left: true }]),
    );
  }
  await deps.models.programAssignments.updateOne({ _id: assignment._id }, { $set: { enrolledAt: clock.now() } });
  return { enrolled };
}

/**
 * The person's members of these assignments, enrolling them where they are not yet (the job that goes
 * through the audience may not have reached them): what a learner's own read or a lock check needs.
 */
export async function membersOf(
  deps: EnrolDeps,
  person: Principal,
  assignments: ProgramAssignmentDoc[],
): Promise<{ members: ProgramMemberDoc[]; programs: Map<string, ProgramDoc> }> {
  const programs = new Map<string, ProgramDoc>();
  if (!assignments.length) return { members: [], programs };
  const [found, docs] = await Promise.all([
    deps.models.programMembers
      .find({ userId: person.id, assignmentId: op({ $in: assignments.map((a) => String(a._id)) }) })
      .lean<ProgramMemberDoc[]>(),
    deps.models.programs.find({ _id: op({ $in: [...new Set(assignments.map((a) => a.programId))] }) }).lean<ProgramDoc[]>(),
  ]);
  for (const p of docs) programs.set(String(p._id), p);
  const members = found.filter((m) => !m.left);
  const have = new Set(found.map((m) => m.assignmentId));
  for (const a of assignments) {
    const program = programs.get(a.programId);
    if (have.has(String(a._id)) || !program) continue;
    members.push(...(await enrolPeople(deps, program, a, [person])));
  }
  return { members, programs };
}

/** The program assignments that reach a person, those holding a course in a locked stage if asked. */
export const programAssignmentsOf = (deps: Pick<EnrolDeps, 'models'>, person: Principal, filter: Record<string, unknown> = {}) =>
  deps.models.programAssignments.find({ ...filter, ...assignedTo(person) }).lean<ProgramAssignmentDoc[]>();

/**
 * The assignments reaching a person that hold a course in a locked stage: asked at every lesson
 * completion and quiz start, and most often none. Kept per process under the assignments' version
 * (every write of an assignment moves it; decision 112), by the course and what the audience reads of
 * the person (id, role, department).
 */
const keptLocks = onePer(
  (assignments: EnrolDeps['models']['programAssignments']) =>
    new VersionedCache<ProgramAssignmentDoc[]>(assignments.db, { name: PROGRAM_ASSIGNMENTS_VERSION, maxEntries: 10_000 }),
);

/**
 * Refuses a quiz start or a lesson completion in a course of a stage the person's program keeps
 * closed, naming the stage and the one that opens it. No read when the course is in no locked stage
 * and the locks are kept (one when they are read).
 */
export async function assertCourseOpen(deps: EnrolDeps, person: Principal, courseId: string): Promise<void> {
  const assignments = await keptLocks(deps.models.programAssignments).get(
    { courseId, person: person.id, role: person.role, department: person.department ?? '' },
    () => programAssignmentsOf(deps, person, { lockedCourseIds: courseId }),
  );
  if (!assignments.length) return;
  const { members, programs } = await membersOf(deps, person, assignments);
  for (const m of members) {
    const program = programs.get(m.programId);
    const closed = program && closingStage(program, m, courseId);
    if (program && closed) throw conflict(PROGRAM_MSG.locked(program.title, closed.stage.title, closed.opensAfter.title));
  }
}

/**
 * A person completed a course: their stages in every program holding it move on now (a stage opens,
 * a program completes). Nothing is read beyond one query when no program holds the course.
 */
export async function onCourseCompleted(deps: EnrolDeps, person: Principal, courseId: string): Promise<void> {
  const holding = await deps.models.programs.find({ courseIds: courseId }, { _id: 1 }).lean<Array<{ _id: unknown }>>();
  if (!holding.length) return;
  const assignments = await programAssignmentsOf(deps, person, { programId: op({ $in: holding.map((p) => String(p._id)) }) });
  const { members, programs } = await membersOf(deps, person, assignments);
  for (const member of members) {
    const assignment = assignments.find((a) => String(a._id) === member.assignmentId);
    const program = programs.get(member.programId);
    if (assignment && program) await settleMembers(deps, program, assignment, [member]);
  }
}
