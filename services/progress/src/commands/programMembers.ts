import {
  dayOf,
  isFinalPass,
  nextCycleStart,
  programCompletedAt,
  programPersonStatus,
  stageStates,
  type StageRuleStage,
  type StageState,
} from '@portal/contracts';
import { clock, op } from '@portal/service-kit';
import type { ProgressModels } from '../models';
import type { ProgramAssignmentDoc, ProgramDoc, ProgramMemberDoc } from '../models/program';

/**
 * One person's place in a program assignment, computed from their course completions: the pure
 * stage rule of contracts (`stageStates`) over what the store says they completed, within the
 * program's validity (a recurring program counts a completion from the start of the person's cycle).
 */

export const ruleStages = (program: Pick<ProgramDoc, 'stages'>): StageRuleStage[] =>
  program.stages.map((s) => ({
    key: s.key,
    title: s.title,
    courseIds: s.courses.map((c) => c.courseId),
    required: s.required,
    dueDays: s.dueDays,
    dueFrom: s.dueFrom,
    locked: s.locked,
  }));

type Pass = {
  userId: string;
  courseId: string;
  lessonId: string;
  status: string;
  awaitingReview?: boolean;
  completedAt: Date | null;
};

/**
 * When each person completed each of the program's courses, counted from `validFrom` of theirs (null:
 * any completion). One read of course completions for the whole batch; a recurring program also reads
 * the quiz passes, since a course is done again by passing its quizzes again.
 */
export async function courseDoneTimes(
  models: ProgressModels,
  program: Pick<ProgramDoc, 'stages' | 'courseIds'>,
  people: Array<{ userId: string; validFrom: Date | null }>,
): Promise<Map<string, Map<string, Date>>> {
  const result = new Map<string, Map<string, Date>>(people.map((p) => [p.userId, new Map()]));
  const userIds = people.map((p) => p.userId);
  if (!userIds.length || !program.courseIds.length) return result;
  const recurring = people.some((p) => p.validFrom);
  const [completions, passes] = await Promise.all([
    models.courseCompletions
      .find(
        { userId: op({ $in: userIds }), courseId: op({ $in: program.courseIds }) },
        { userId: 1, courseId: 1, completedAt: 1 },
      )
      .lean<Array<{ userId: string; courseId: string; completedAt: Date }>>(),
    recurring
      ? models.attempts
          .find(
            { userId: op({ $in: userIds }), courseId: op({ $in: program.courseIds }), status: 'passed' },
            { userId: 1, courseId: 1, lessonId: 1, status: 1, awaitingReview: 1, completedAt: 1 },
          )
          .lean<Pass[]>()
      : Promise.resolve([] as Pass[]),
  ]);
  const quizLessons = new Map(program.stages.flatMap((s) => s.courses.map((c) => [c.courseId, c.quizLessonIds] as const)));
  const latestPass = new Map<string, number>();
  for (const p of passes) {
    if (!isFinalPass(p) || !p.completedAt) continue;
    const key = `${p.userId}|${p.lessonId}`;
    latestPass.set(key, Math.max(latestPass.get(key) ?? 0, p.completedAt.getTime()));
  }
  const validFrom = new Map(people.map((p) => [p.userId, p.validFrom]));
  for (const c of completions) {
    const from = validFrom.get(c.userId);
    let at = c.completedAt.getTime();
    if (from) {
      // Done again: every quiz of it passed again (its latest passes); a course without a quiz keeps its date.
      const quizzes = quizLessons.get(c.courseId) ?? [];
      if (quizzes.length) {
        const latest = quizzes.map((l) => latestPass.get(`${c.userId}|${l}`) ?? 0);
        at = Math.min(...latest) > 0 ? Math.max(...latest) : 0;
      }
      if (at < from.getTime()) continue;
    }
    result.get(c.userId)?.set(c.courseId, new Date(at));
  }
  return result;
}

/**
 * What is stored of a person's states: where they are, what is locked, when they finished. Kept to a
 * few scalars (the stage-by-stage view is computed when asked), so that reading many members is cheap.
 */
export function memberFields(states: StageState[]) {
  const current = states.find((s) => !s.completedAt) ?? null;
  const dues = states.filter((s) => !s.completedAt && s.dueDate).map((s) => s.dueDate!);
  return {
    stagesCompleted: states.filter((s) => s.completedAt).length,
    currentStageKey: current?.key ?? null,
    currentDue: current?.dueDate ?? null,
    earliestDue: dues.length ? dues.sort()[0] : null,
    completedAt: programCompletedAt(states),
    state: programPersonStatus(states),
  };
}

export type MemberFields = ReturnType<typeof memberFields>;

/** A person's states now, from their completions. */
export function statesOf(
  program: Pick<ProgramDoc, 'stages'>,
  member: Pick<ProgramMemberDoc, 'startDate' | 'extensions'>,
  done: Map<string, Date>,
  now = clock.now(),
): StageState[] {
  return stageStates({
    stages: ruleStages(program),
    startDate: member.startDate,
    courseDoneAt: done,
    extensions: member.extensions ?? {},
    now,
  });
}

/** The first cycle of a person: from the assignment's day; a recurring program counts completions within its period before it. */
export function firstCycle(assignment: Pick<ProgramAssignmentDoc, 'startDate' | 'recurrenceMonths'>) {
  return {
    cycle: 1,
    startDate: assignment.startDate,
    validFrom: assignment.recurrenceMonths
      ? new Date(`${nextCycleStart(new Date(`${assignment.startDate}T12:00:00Z`), -assignment.recurrenceMonths)}T00:00:00Z`)
      : null,
  };
}

/**
 * A recurring program's next cycle for a person who completed it: it begins `recurrenceMonths` after
 * the completion, counts completions after it, and forgets the person's extensions and certificate.
 */
export function nextCycle(member: Pick<ProgramMemberDoc, 'cycle' | 'completedAt'>, months: number, now = clock.now()) {
  if (!member.completedAt) return null;
  const start = nextCycleStart(member.completedAt, months);
  if (dayOf(now) < start) return null;
  return {
    cycle: member.cycle + 1,
    startDate: start,
    validFrom: new Date(member.completedAt.getTime() + 1),
    extensions: {},
    certificateNumber: null,
  };
}

/**
 * The stage that keeps a course closed for a member, or null. Stages complete in order, so the
 * first incomplete one is number `stagesCompleted` and is open; a later stage marked locked is closed,
 * since the stage before it is not complete.
 */
export function closingStage(
  program: Pick<ProgramDoc, 'stages'>,
  m: Pick<ProgramMemberDoc, 'stagesCompleted' | 'completedAt'>,
  courseId: string,
) {
  if (m.completedAt) return null;
  const at = program.stages.findIndex((s) => s.courses.some((c) => c.courseId === courseId));
  if (at <= m.stagesCompleted || !program.stages[at].locked) return null;
  return { stage: program.stages[at], opensAfter: program.stages[at - 1] };
}
