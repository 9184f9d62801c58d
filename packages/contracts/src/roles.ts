export const ROLES = ['ADMIN', 'MANAGER', 'CURATOR', 'CLIENT', 'CANDIDATE'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  ADMIN: 'Администратор',
  MANAGER: 'Менеджер',
  CURATOR: 'Куратор',
  CLIENT: 'Клиент',
  CANDIDATE: 'Кандидат',
};

/** Roles that author courses, use the CRM and see management figures (spec section 6). */
export const STAFF_ROLES: readonly Role[] = ['ADMIN', 'CURATOR'];
/** Roles that study courses and take quizzes. */
export const LEARNER_ROLES: readonly Role[] = ['CLIENT', 'CANDIDATE'];
/** Roles a person may choose when registering without the administrator password. */
export const SELF_REGISTER_ROLES: readonly Role[] = ['CLIENT', 'CANDIDATE', 'CURATOR'];
/** The CRM is also open to MANAGER: the preset account says it manages users and organizations. */
export const CRM_ROLES: readonly Role[] = ['ADMIN', 'CURATOR', 'MANAGER'];

export const isStaff = (role: Role | undefined): boolean => !!role && STAFF_ROLES.includes(role);

/** Where a person lands after signing in (spec section 2). */
export const homePathFor = (role: Role): string => (isStaff(role) ? '/dashboard' : '/courses');
