import { isValidObjectId } from 'mongoose';
import { PROGRAM_MSG, dayOf, pageOffset, type Audience, type MyProgram, type ProgramPersonStatus } from '@portal/contracts';
import { badRequest, clock, notFound, op, type Principal } from '@portal/service-kit';
import type { ProgressModels } from '../models';
import type { ProgramAssignmentDoc, ProgramDoc, ProgramMemberDoc } from '../models/program';
import { presentMyProgram } from '../presenters/program';
import { audienceData } from './assignmentAudience';
import type { ProgressDeps } from './deps';
import { settleMembers, type EnrolDeps } from './programEnrolment';
import { courseDoneTimes, statesOf } from './programMembers';
import { lockedCourseIdsOf } from './programs';
import { tallyTotal } from './programTallies';

export async function loadProgramAssignment(models: ProgressModels, id: string): Promise<ProgramAssignmentDoc> {
  const doc = isValidObjectId(id) ? await models.programAssignments.findById(id).lean<ProgramAssignmentDoc>() : null;
  if (!doc) throw notFound(PROGRAM_MSG.assignmentNotFound);
  return doc;
}

const audienceFields = (audience: Audience) => ({
  audienceKind: audience.kind,
  audienceUserIds: audience.kind === 'users' ? [...new Set(audience.userIds)] : [],
  audienceDepartment: audience.kind === 'department' ? audience.department : '',
  audienceRole: audience.kind === 'role' ? audience.role : null,
});

/**
 * Assigns a program: refused while archived or while a stage has no course. It starts today; its
 * people are enrolled by a job (the caller asks for it) and whenever one of them opens their programs.
 */
export async function createProgramAssignment(
  deps: Pick<ProgressDeps, 'models' | 'audit'>,
  actor: Principal,
  program: ProgramDoc,
  input: { audience: Audience; mandatory: boolean; recurrenceMonths: number | null; message: string },
): Promise<ProgramAssignmentDoc> {
  if (program.status === 'archived') throw badRequest(PROGRAM_MSG.archived, 'programId');
  const empty = program.stages.find((s) => !s.courses.length);
  if (empty) throw badRequest(PROGRAM_MSG.stageEmpty(empty.title), 'programId');
  const created = await deps.models.programAssignments.create({
    programId: String(program._id),
    programTitle: program.title,
    ...audienceFields(input.audience),
    mandatory: input.mandatory,
    recurrenceMonths: input.recurrenceMonths,
    message: input.message,
    startDate: dayOf(clock.now()),
    lockedCourseIds: lockedCourseIdsOf(program.stages),
    createdBy: { id: actor.id, fullName: actor.fullName },
    enrolledAt: null,
  });
  const doc = created.toObject<ProgramAssignmentDoc>();
  deps.audit.publish({
    code: 'programAssignment.created',
    data: { program: program.title, programId: String(program._id), audience: audienceData(input.audience) },
    entityId: String(doc._id),
    actor,
  });
  return doc;
}

export async function deleteProgramAssignment(
  deps: Pick<ProgressDeps, 'models' | 'audit'>,
  actor: Principal,
  doc: ProgramAssignmentDoc,
): Promise<void> {
  await deps.models.programAssignments.deleteOne({ _id: doc._id });
  await deps.models.programMembers.deleteMany({ assignmentId: String(doc._id) });
  await deps.models.programTallies.deleteMany({ assignmentId: String(doc._id) });
  deps.audit.publish({
    code: 'programAssignment.deleted',
    data: { program: doc.programTitle, programId: doc.programId },
    entityId: String(doc._id),
    actor,
  });
}

export async function loadMember(models: ProgressModels, assignmentId: string, userId: string): Promise<ProgramMemberDoc> {
  const member = await models.programMembers.findOne({ assignmentId, userId, left: false }).lean<ProgramMemberDoc>();
  if (!member) throw notFound(PROGRAM_MSG.personNotInAudience);
  return member;
}

/** A person's own deadline for one stage; their stages are computed again with it. */
export async function extendStage(
  deps: EnrolDeps,
  actor: Principal,
  assignment: ProgramAssignmentDoc,
  program: ProgramDoc,
  input: { userId: string; stageKey: string; dueDate: string },
): Promise<ProgramMemberDoc> {
  const stage = program.stages.find((s) => s.key === input.stageKey);
  if (!stage) throw badRequest(PROGRAM_MSG.stageNotFound, 'stageKey');
  if (input.dueDate < dayOf(clock.now())) throw badRequest(PROGRAM_MSG.dueDatePast, 'dueDate');
  const member = await loadMember(deps.models, String(assignment._id), input.userId);
  const extensions = { ...(member.extensions ?? {}), [stage.key]: input.dueDate };
  await deps.models.programMembers.updateOne({ _id: member._id }, { $set: { extensions } });
  const [settled] = await settleMembers(deps, program, assignment, [{ ...member, extensions }]);
  deps.audit.publish({
    code: 'programStage.extended',
    data: {
      program: program.title,
      programId: String(program._id),
      stage: stage.title,
      stageKey: stage.key,
      dueDate: input.dueDate,
      person: member.fullName,
      userId: member.userId,
    },
    entityId: String(assignment._id),
    actor,
  });
  return settled;
}

/**
 * The filter of a report's people: not left, of a department, of a status, on a stage. Every part is an
 * equality, which the store answers from its index (FerretDB reads every document of a range or an
 * `$or` to filter it).
 */
export function peopleFilter(
  assignmentId: string,
  { department, status, stageKey }: { department?: string; status?: ProgramPersonStatus; stageKey?: string },
): Record<string, unknown> {
  const filter: Record<string, unknown> = { assignmentId, left: false };
  if (department) filter.department = department;
  if (stageKey) filter.currentStageKey = stageKey;
  if (status) filter.state = status;
  return filter;
}

/**
 * A page of the report's people, by name. Its total comes from the tallies where they hold it (no
 * filter, a department, a status, or a stage), so the store counts nothing; both a status and a stage
 * are counted.
 */
export async function programPeoplePage(
  models: ProgressModels,
  assignmentId: string,
  filters: { department?: string; status?: ProgramPersonStatus; stageKey?: string },
  paging: { page: number; limit: number },
): Promise<{ rows: ProgramMemberDoc[]; total: number }> {
  const filter = peopleFilter(assignmentId, filters);
  const [rows, total] = await Promise.all([
    models.programMembers
      .find(filter)
      .sort({ fullName: 1, _id: 1 })
      .skip(pageOffset(paging))
      .limit(paging.limit)
      .lean<ProgramMemberDoc[]>(),
    filters.status && filters.stageKey ? models.programMembers.countDocuments(filter) : tallyTotal(models, assignmentId, filters),
  ]);
  return { rows, total };
}

/** One person's program as they see it now: stages computed from their completions, courses' percent. */
export async function programOf(
  models: ProgressModels,
  assignment: ProgramAssignmentDoc,
  program: ProgramDoc,
  member: ProgramMemberDoc,
): Promise<MyProgram> {
  const [done, lessons] = await Promise.all([
    courseDoneTimes(models, program, [{ userId: member.userId, validFrom: member.validFrom }]),
    program.courseIds.length
      ? models.completions
          .find({ userId: member.userId, courseId: op({ $in: program.courseIds }) }, { lessonId: 1 })
          .lean<Array<{ lessonId: string }>>()
      : Promise.resolve([]),
  ]);
  const courseDone = done.get(member.userId) ?? new Map<string, Date>();
  const states = statesOf(program, member, courseDone);
  return presentMyProgram(assignment, program, member, states, courseDone, new Set(lessons.map((l) => l.lessonId)));
}
