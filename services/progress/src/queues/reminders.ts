import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { dayOf } from '@portal/contracts';
import { clock, scheduledJob, type Logger, type ScheduledJob } from '@portal/service-kit';
import { loadAssignment } from '../commands/assignments';
import { enrolAudience } from '../commands/programEnrolment';
import { recomputeProgram, runProgramReminders } from '../commands/programRun';
import { remindAssigned, runReminders, type ReminderDeps } from '../commands/reminders';
import type { ProgramAssignmentDoc } from '../models/program';

export const REMINDERS_QUEUE = 'progress-reminders';
export const REMINDERS_SCHEDULER = 'progress-reminders';

export interface RemindersOptions {
  /** A cron pattern (UTC) of the daily run; it runs hourly by default so a day missed while down is caught up. */
  cron: string;
  prefix: string;
}

/**
 * The reminders: the daily `run` fires on `cron` (each firing goes to one worker of one replica), and
 * an assignment just made asks for `assigned` at once (its job id is the assignment's, so asking
 * twice is one job). What a run finds to say is stored under unique keys, so even two runs of the
 * same day at once tell each person once. `now` comes from the service kit's clock.
 */
export function startReminders(
  connection: Redis,
  deps: ReminderDeps,
  logger: Logger,
  { cron, prefix }: RemindersOptions,
): ScheduledJob {
  return scheduledJob(connection, logger, {
    queue: REMINDERS_QUEUE,
    scheduler: REMINDERS_SCHEDULER,
    name: 'run',
    repeat: { cron },
    prefix,
    work: async (job) => {
      if (job.name === 'program-enrol') {
        const assignment = await deps.models.programAssignments
          .findById(String(job.data.assignmentId))
          .lean<ProgramAssignmentDoc>();
        const result = assignment ? await enrolAudience(deps, assignment) : { enrolled: 0 };
        logger.info({ programAssignment: job.data.assignmentId, ...result }, 'program audience enrolled');
        return result;
      }
      if (job.name === 'program-recompute') {
        const settled = await recomputeProgram(deps, String(job.data.programId));
        logger.info({ program: job.data.programId, settled }, 'program members computed again');
        return { settled };
      }
      if (job.name === 'assigned') {
        const sent = await remindAssigned(deps, await loadAssignment(deps.models, String(job.data.assignmentId)));
        logger.info({ assignment: job.data.assignmentId, sent }, 'assignment notified');
        return { sent };
      }
      const today = dayOf(clock.now());
      const run = await runReminders(deps, today);
      const programs = await runProgramReminders(deps, today);
      logger.info({ today, ...run, programs }, 'reminders run');
      return { ...run, programs };
    },
  });
}

/**
 * Asks for the «назначен» notifications of a new assignment at once. Should Redis be away, the next
 * scheduled run finds the assignment still untold and tells its people then.
 */
export async function requestAssignedNotifications(queue: Queue, assignmentId: string, logger: Logger): Promise<void> {
  try {
    await queue.add(
      'assigned',
      { assignmentId },
      { jobId: `assigned-${assignmentId}`, removeOnComplete: true, removeOnFail: 50 },
    );
  } catch (err) {
    logger.warn({ assignment: assignmentId, err: (err as Error).message }, 'assignment notifications left to the next run');
  }
}

/**
 * Asks for a program job at once: `program-enrol` goes through a new assignment's audience,
 * `program-recompute` computes a saved program's people again (each save its own job: one that
 * started before a later save would miss it). Should Redis be away, the daily run enrols the
 * audience, and a person is enrolled anyway when they open their programs or touch one of its courses.
 */
export async function requestProgramJob(
  queue: Queue,
  name: 'program-enrol' | 'program-recompute',
  data: { assignmentId: string } | { programId: string },
  logger: Logger,
): Promise<void> {
  const id = 'assignmentId' in data ? data.assignmentId : data.programId;
  try {
    await queue.add(name, data, { jobId: `${name}-${id}-${Date.now()}`, removeOnComplete: true, removeOnFail: 50 });
  } catch (err) {
    logger.warn({ job: name, id, err: (err as Error).message }, 'program job left to the daily run');
  }
}
