import {
  dayOf,
  daysBetween,
  programPersonStatus,
  type MyProgram,
  type MyProgramSummary,
  type Program,
  type ProgramAssignment,
  type ProgramPerson,
  type ProgramPersonStatus,
  type ProgramSummary,
  type StageState,
  type StageStatus,
} from '@portal/contracts';
import { clock, type Principal } from '@portal/service-kit';
import { audienceOf } from '../commands/assignmentAudience';
import type { ProgramAssignmentDoc, ProgramDoc, ProgramMemberDoc } from '../models/program';
import { canEditProgram } from '../policies/programs';

export const presentProgram = (doc: ProgramDoc, viewer: Principal, names: ReadonlyMap<string, string> = new Map()): Program => ({
  id: String(doc._id),
  title: doc.title,
  description: doc.description,
  certificate: doc.certificate,
  status: doc.status,
  stages: doc.stages.map((s) => ({
    key: s.key,
    title: s.title,
    courses: s.courses.map((c) => ({ id: c.courseId, title: c.title, published: c.published })),
    required: s.required ?? null,
    dueDays: s.dueDays,
    dueFrom: s.dueFrom,
    locked: s.locked,
  })),
  owner: { id: doc.owner.id, fullName: doc.owner.fullName },
  coAuthorIds: doc.coAuthorIds,
  coAuthors: doc.coAuthorIds.map((id) => ({ id, fullName: names.get(id) ?? '' })),
  canEdit: canEditProgram(viewer, doc),
  version: doc.version ?? 0,
  createdAt: new Date(doc.createdAt).toISOString(),
  updatedAt: new Date(doc.updatedAt).toISOString(),
});

export const presentProgramSummary = (doc: ProgramDoc, viewer: Principal): ProgramSummary => ({
  id: String(doc._id),
  title: doc.title,
  status: doc.status,
  stageCount: doc.stages.length,
  courseCount: doc.courseIds.length,
  owner: { id: doc.owner.id, fullName: doc.owner.fullName },
  canEdit: canEditProgram(viewer, doc),
  updatedAt: new Date(doc.updatedAt).toISOString(),
});

export const presentProgramAssignment = (doc: ProgramAssignmentDoc): ProgramAssignment => ({
  id: String(doc._id),
  programId: doc.programId,
  programTitle: doc.programTitle,
  audience: audienceOf(doc),
  mandatory: doc.mandatory,
  recurrenceMonths: doc.recurrenceMonths ?? null,
  message: doc.message,
  startDate: doc.startDate,
  createdBy: { id: doc.createdBy.id, fullName: doc.createdBy.fullName },
  createdAt: new Date(doc.createdAt).toISOString(),
});

/** A stored member's status now: the deadlines are stored, the day they are compared with is today. */
export function memberStatus(
  m: Pick<ProgramMemberDoc, 'completedAt' | 'earliestDue'>,
  today = dayOf(clock.now()),
): ProgramPersonStatus {
  if (m.completedAt) return 'completed';
  return m.earliestDue && m.earliestDue < today ? 'overdue' : 'in_progress';
}

/** The status of the stage a stored member is on (the first incomplete one is never closed: the one before it is complete). */
const currentStatus = (m: ProgramMemberDoc, today: string): StageStatus =>
  m.currentDue && m.currentDue < today ? 'overdue' : 'in_progress';

const titleOf = (program: ProgramDoc | undefined, key: string | null) => program?.stages.find((s) => s.key === key)?.title ?? '';

export function presentProgramPerson(program: ProgramDoc, m: ProgramMemberDoc): ProgramPerson {
  const today = dayOf(clock.now());
  return {
    userId: m.userId,
    fullName: m.fullName,
    email: m.email,
    department: m.department,
    status: memberStatus(m, today),
    stagesCompleted: m.stagesCompleted,
    currentStage: m.currentStageKey
      ? {
          key: m.currentStageKey,
          title: titleOf(program, m.currentStageKey),
          status: currentStatus(m, today),
          dueDate: m.currentDue,
        }
      : null,
    completedAt: m.completedAt ? m.completedAt.toISOString() : null,
    certificateNumber: m.certificateNumber,
  };
}

export function presentMyProgramSummary(
  assignment: ProgramAssignmentDoc,
  program: ProgramDoc | undefined,
  m: ProgramMemberDoc,
): MyProgramSummary {
  const today = dayOf(clock.now());
  return {
    assignmentId: String(assignment._id),
    programId: assignment.programId,
    title: assignment.programTitle,
    status: memberStatus(m, today),
    stageCount: program?.stages.length ?? 0,
    stagesCompleted: m.stagesCompleted,
    currentStage:
      m.currentStageKey && program
        ? {
            key: m.currentStageKey,
            title: titleOf(program, m.currentStageKey),
            status: currentStatus(m, today),
            dueDate: m.currentDue,
            daysLeft: m.currentDue ? daysBetween(today, m.currentDue) : null,
          }
        : null,
  };
}

/**
 * A person's program stage by stage, as computed now (`states`), with each course's percent of
 * lessons completed (`lessonsDone`: completed lesson ids of the person).
 */
export function presentMyProgram(
  assignment: ProgramAssignmentDoc,
  program: ProgramDoc,
  m: ProgramMemberDoc,
  states: StageState[],
  courseDone: Map<string, Date>,
  lessonsDone: Set<string>,
): MyProgram {
  return {
    assignmentId: String(assignment._id),
    programId: assignment.programId,
    title: program.title,
    description: program.description,
    status: programPersonStatus(states),
    mandatory: assignment.mandatory,
    message: assignment.message,
    stages: program.stages.map((stage, i) => {
      const s = states[i];
      return {
        key: stage.key,
        title: stage.title,
        status: s.status,
        dueDate: s.dueDate,
        daysLeft: s.daysLeft,
        dueDays: stage.dueDays,
        dueFrom: stage.dueFrom,
        completedAt: s.completedAt ? s.completedAt.toISOString() : null,
        opensAfter: s.opensAfter,
        required: s.required,
        done: s.done,
        courses: stage.courses.map((c) => {
          const completed = courseDone.has(c.courseId);
          const lessons = c.lessonIds.length;
          const marked = c.lessonIds.filter((l) => lessonsDone.has(l)).length;
          return {
            courseId: c.courseId,
            title: c.title,
            completed,
            percent: completed ? 100 : lessons ? Math.round((marked / lessons) * 100) : 0,
          };
        }),
      };
    }),
    completedAt: m.completedAt ? m.completedAt.toISOString() : null,
    certificateNumber: m.certificateNumber,
  };
}
