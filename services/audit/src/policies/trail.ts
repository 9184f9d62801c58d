import { ROLES, STAFF_ROLES, activityScopeFor, type Role } from '@portal/contracts';
import { definePolicy } from '@portal/service-kit';

/** The history of everyone's actions: ADMIN reads all of it, a curator the part about their courses. */
export const readTrail = definePolicy('readTrail', STAFF_ROLES);

/** Anyone signed in reads their own actions, and nobody else's. */
export const readOwnTrail = definePolicy('readOwnTrail', ROLES);

/** Whether a reader of `readTrail` reads the whole of it (ADMIN) or only their part (a curator). */
export const readsWholeTrail = (reader: { role: Role }): boolean => activityScopeFor(reader.role) === 'all';
