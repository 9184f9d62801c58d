import { STAFF_ROLES } from '@portal/contracts';
import { definePolicy, type Principal } from '@portal/service-kit';
import type { JobDoc } from '../models/generationJob';

/**
 * A generation belongs to the author who started it; an ADMIN may also see, cancel and accept it.
 * To anyone else it does not exist (404, not 403: job ids are not to be probed).
 */
export const canUseJob = (user: Principal, record: Pick<JobDoc, 'ownerId'>): boolean =>
  record.ownerId === user.id || user.role === 'ADMIN';

/**
 * The course builder's routes: the authoring roles reach them; a job is then its starter's or an
 * ADMIN's (canUseJob, after its load), and a regeneration or an accept needs the right to change the
 * course (after the target's load).
 */
export const courseBuilders = definePolicy('courseBuilders', STAFF_ROLES);
