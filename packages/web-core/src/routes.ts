// The roles-only entry: the shell must not pull zod in at start.
import { ROLES, isStaff, type Role } from '@portal/contracts/roles';

export type Access = { public: true } | { public: false; roles: readonly Role[] };

const anyone: Access = { public: true };
const signedIn: Access = { public: false, roles: ROLES };
const staff: Access = { public: false, roles: ['ADMIN', 'CURATOR'] };
const crm: Access = { public: false, roles: ['ADMIN', 'CURATOR', 'MANAGER'] };

/** The route table of spec section 2: which micro-frontend shows a path and who may open it. */
export const ROUTES: Array<{ pattern: RegExp; app: string; access: Access }> = [
  { pattern: /^\/$/, app: 'mf_landing', access: anyone },
  { pattern: /^\/auth\/?$/, app: 'mf_landing', access: anyone },
  // The administrator's one-time link to set a new password (RESET_PASSWORD_PATH).
  { pattern: /^\/auth\/reset\/?$/, app: 'mf_landing', access: anyone },
  { pattern: /^\/register\/?$/, app: 'mf_landing', access: anyone },
  { pattern: /^\/demo(\/.*)?$/, app: 'mf_editor', access: anyone },
  { pattern: /^\/dashboard\/?$/, app: 'mf_dashboard', access: signedIn },
  { pattern: /^\/courses\/?$/, app: 'mf_courses', access: signedIn },
  { pattern: /^\/courses\/(create|new)\/?$/, app: 'mf_courses', access: staff },
  { pattern: /^\/editor\/[^/]+\/?$/, app: 'mf_editor', access: staff },
  { pattern: /^\/lesson\/new(\/[^/]*)?\/?$/, app: 'mf_editor', access: staff },
  { pattern: /^\/lesson-editor-demo\/?$/, app: 'mf_editor', access: staff },
  // Study mode: learners study; ADMIN and CURATOR open it as «Просмотр как слушатель», a preview that
  // records nothing (the client calls no writing route, and the progress service refuses staff).
  { pattern: /^\/student\/[^/]+\/?$/, app: 'mf_player', access: signedIn },
  // Staff see everyone's results there (the server scopes learners to their own).
  { pattern: /^\/results\/?$/, app: 'mf_player', access: signedIn },
  { pattern: /^\/crm(\/.*)?$/, app: 'mf_crm', access: crm },
];

export const routeFor = (pathname: string) => ROUTES.find((r) => r.pattern.test(pathname)) ?? null;

export type GuardDecision =
  | { kind: 'allow' }
  | { kind: 'loading' }
  | { kind: 'login' }
  | { kind: 'denied'; role: Role; required: readonly Role[] }
  | { kind: 'unknown' };

/** What the route guard does for a path, given the auth state. */
export function decide(pathname: string, auth: { status: 'loading' | 'ready'; role: Role | null }): GuardDecision {
  const route = routeFor(pathname);
  if (!route) return { kind: 'unknown' };
  if (route.access.public) return { kind: 'allow' };
  if (auth.status === 'loading') return { kind: 'loading' };
  if (!auth.role) return { kind: 'login' };
  if (!route.access.roles.includes(auth.role)) return { kind: 'denied', role: auth.role, required: route.access.roles };
  return { kind: 'allow' };
}

export interface NavItem {
  href: string;
  label: string;
}

const HOME: NavItem = { href: '/dashboard', label: 'Главная' };
const COURSES: NavItem = { href: '/courses', label: 'Курсы' };
// Staff read everyone's results there (RESULTS_ALL_ROLES); everyone else only their own.
const STAFF_NAV: readonly NavItem[] = [
  HOME,
  COURSES,
  { href: '/results', label: 'Результаты' },
  { href: '/crm/orgs', label: 'Организации' },
  { href: '/crm/contacts', label: 'Контакты' },
];
const LEARNER_NAV: readonly NavItem[] = [HOME, COURSES, { href: '/results', label: 'Мои результаты' }];

/** The links of a person's header: staff navigation for ADMIN and CURATOR, a learner's own for the rest; only what the guard lets them open. */
export const navigationFor = (role: Role): NavItem[] =>
  (isStaff(role) ? STAFF_NAV : LEARNER_NAV).filter((item) => decide(item.href, { status: 'ready', role }).kind === 'allow');

/** The link of the current page: the longest href the path is, or lies under. */
export const currentNavItem = (items: readonly NavItem[], pathname: string): NavItem | null =>
  items
    .filter((item) => pathname === item.href || pathname.startsWith(`${item.href}/`))
    .sort((a, b) => b.href.length - a.href.length)[0] ?? null;
