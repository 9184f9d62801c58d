export const ROLES = ['ADMIN', 'MANAGER', 'CURATOR', 'CLIENT', 'CANDIDATE'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  ADMIN: 'Администратор',
  MANAGER: 'Менеджер',
  CURATOR: 'Куратор',
  CLIENT: 'Клиент',
  CANDIDATE: 'Кандидат',
};

/** Roles that author courses, use the CRM and see management figures (ADMIN and CURATOR: the staff roles). */
export const STAFF_ROLES: readonly Role[] = ['ADMIN', 'CURATOR'];
/** Roles that study courses and take quizzes. */
export const LEARNER_ROLES: readonly Role[] = ['CLIENT', 'CANDIDATE'];
/** Roles a person may choose when registering without the administrator password. */
export const SELF_REGISTER_ROLES: readonly Role[] = ['CLIENT', 'CANDIDATE', 'CURATOR'];
/**
 * Self-registration with these roles files an application («заявка») instead: the account studies
 * as a CANDIDATE until an ADMIN approves it (a role with staff rights is never self-granted).
 */
export const APPLY_FOR_ROLES: readonly Role[] = ['CURATOR'];
/** The CRM is also open to MANAGER: the preset account says it manages users and organizations. */
export const CRM_ROLES: readonly Role[] = ['ADMIN', 'CURATOR', 'MANAGER'];
/** Screens for the administrator alone (the data-subject requests). */
export const ADMIN_ROLES: readonly Role[] = ['ADMIN'];
/** Who studies courses and takes quizzes: everyone but the authors (ADMIN, CURATOR). */
export const STUDY_ROLES: readonly Role[] = ['CLIENT', 'CANDIDATE', 'MANAGER'];
/** Who sees every learner's results, not only their own. */
export const RESULTS_ALL_ROLES: readonly Role[] = ['ADMIN', 'CURATOR'];

export const isStaff = (role: Role | undefined): boolean => !!role && STAFF_ROLES.includes(role);

/** Where a person lands after signing in (each role's home). */
export const homePathFor = (role: Role): string => (isStaff(role) ? '/dashboard' : '/courses');

/** What one person may change in another's account (the directory and PATCH /users/{id} agree). */
export interface UserEditRights {
  fullName: boolean;
  email: boolean;
  role: boolean;
  /** Department and position: what assignments are addressed by, so an ADMIN's alone. */
  department: boolean;
}

const NO_RIGHTS: UserEditRights = { fullName: false, email: false, role: false, department: false };

/**
 * An ADMIN changes anyone's name, email and role. Anyone else with the directory (CURATOR, MANAGER)
 * changes the names of learners only, and their own name and email (never their own role): an
 * account of a peer or a higher role is not theirs to touch.
 */
export function userEditRights(actor: { id: string; role: Role }, target: { id: string; role: Role }): UserEditRights {
  if (actor.role === 'ADMIN') return { fullName: true, email: true, role: true, department: true };
  if (!CRM_ROLES.includes(actor.role)) return NO_RIGHTS;
  if (actor.id === target.id) return { fullName: true, email: true, role: false, department: false };
  if (LEARNER_ROLES.includes(target.role)) return { fullName: true, email: false, role: false, department: false };
  return NO_RIGHTS;
}
