import type { Role } from '@portal/contracts/roles';
import { NAVIGATION, ROUTES, type NavigationEntry, type RemoteName, type RouteDefinition } from './table';

export { NAVIGATION, REMOTES, ROUTES, type Access, type NavigationEntry, type RemoteName, type RouteDefinition } from './table';

type Routes = typeof ROUTES;
export type RouteName = keyof Routes;
type PathOf<N extends RouteName> = Routes[N]['path'];

type ParamKeys<P extends string> = P extends `${string}:${infer Key}/${infer Rest}`
  ? Key | ParamKeys<`/${Rest}`>
  : P extends `${string}:${infer Key}`
    ? Key
    : never;
type RequiredKey<K> = K extends `${string}?` ? never : K;
type OptionalKey<K> = K extends `${infer Key}?` ? Key : never;
/** The parameters of a path pattern: `/lesson/new/:moduleId?` → `{ moduleId?: string }`. */
export type ParamsOf<P extends string> = { [K in RequiredKey<ParamKeys<P>> & string]: string } & {
  [K in OptionalKey<ParamKeys<P>> & string]?: string;
};
type ArgsOf<P extends string> = P extends `${string}:${string}/${infer Rest}`
  ? [string, ...ArgsOf<`/${Rest}`>]
  : P extends `${string}:${string}?`
    ? [string?]
    : P extends `${string}:${string}`
      ? [string]
      : [];

/** The scenes a remote's root renders. */
export type SceneOf<R extends RemoteName> = {
  [N in RouteName]: Routes[N]['remote'] extends R ? Routes[N]['scene'] : never;
}[RouteName];
/** What a scene is given: the parameters of every route that shows it. */
export type SceneParams<R extends RemoteName, S extends string> = {
  [N in RouteName]: Routes[N]['remote'] extends R ? (Routes[N]['scene'] extends S ? ParamsOf<PathOf<N>> : never) : never;
}[RouteName];

interface Segment {
  literal?: string;
  param?: string;
  optional?: boolean;
}

const compile = (path: string): Segment[] =>
  path
    .split('/')
    .filter(Boolean)
    .map((part) =>
      part.startsWith(':') ? { param: part.replace(/^:|\?$/g, ''), optional: part.endsWith('?') } : { literal: part },
    );

const COMPILED = (Object.keys(ROUTES) as RouteName[]).map((name) => ({ name, segments: compile(ROUTES[name].path) }));

const decode = (part: string): string | null => {
  try {
    return decodeURIComponent(part);
  } catch {
    return null; // a malformed escape such as %E0
  }
};

function match(segments: Segment[], parts: string[]): Record<string, string> | null {
  const required = segments.filter((s) => !s.optional).length;
  if (parts.length < required || parts.length > segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    const segment = segments[i];
    if (segment.literal !== undefined) {
      if (segment.literal !== part) return null;
      continue;
    }
    const value = part ? decode(part) : null;
    if (value === null || value === '') return null;
    params[segment.param!] = value;
  }
  return params;
}

/** Shared between the callers of one path: read only. */
export interface ResolvedRoute {
  readonly name: RouteName;
  readonly route: RouteDefinition;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Paths already resolved: the table is fixed, and a page start asks for the same few paths many times
 * (each remote's activity function, the guard, the navigation's links, each root). Bounded.
 */
const RESOLVED = new Map<string, ResolvedRoute | null>();
const RESOLVED_MAX = 64;

/** The route a path shows (trailing slashes aside), with its decoded parameters; null when none does. */
export function resolve(pathname: string): ResolvedRoute | null {
  let resolved = RESOLVED.get(pathname);
  if (resolved === undefined) {
    resolved = resolveAnew(pathname);
    if (RESOLVED.size >= RESOLVED_MAX) RESOLVED.delete(RESOLVED.keys().next().value!);
    RESOLVED.set(pathname, resolved);
  }
  return resolved;
}

function resolveAnew(pathname: string): ResolvedRoute | null {
  const parts = (pathname.replace(/\/+$/, '') || '/').split('/').slice(1);
  if (parts.length === 1 && parts[0] === '') parts.pop(); // "/"
  for (const { name, segments } of COMPILED) {
    const params = match(segments, parts);
    if (params) return Object.freeze({ name, route: ROUTES[name], params: Object.freeze(params) });
  }
  return null;
}

/** The API reads the scene of this address makes first (its route's firstReads); none for most routes. */
export function firstReadsOf(pathname: string, search: string): string[] {
  const resolved = resolve(pathname);
  return resolved?.route.firstReads?.(resolved.params, new URLSearchParams(search)) ?? [];
}

function build(name: RouteName, args: ReadonlyArray<string | undefined>): string {
  let next = 0;
  const parts: string[] = [];
  for (const segment of COMPILED.find((c) => c.name === name)!.segments) {
    if (segment.literal !== undefined) parts.push(segment.literal);
    else {
      const value = args[next++];
      if (value !== undefined) parts.push(encodeURIComponent(value));
      else if (!segment.optional) throw new Error(`${name}: the parameter ${segment.param} is missing`);
    }
  }
  return `/${parts.join('/')}`;
}

/** Path builders, one per route, parameters in the order of the path: `paths.editor(courseId)`. */
export const paths = Object.fromEntries(
  (Object.keys(ROUTES) as RouteName[]).map((name) => [name, (...args: Array<string | undefined>) => build(name, args)]),
) as { [N in RouteName]: (...args: ArgsOf<PathOf<N>>) => string };

export type GuardDecision =
  | { kind: 'allow' }
  | { kind: 'loading' }
  | { kind: 'login' }
  | { kind: 'denied'; role: Role; required: readonly Role[] }
  | { kind: 'unknown' };

/** What the route guard does for a path, given the auth state. */
export function decide(pathname: string, auth: { status: 'loading' | 'ready'; role: Role | null }): GuardDecision {
  const resolved = resolve(pathname);
  if (!resolved) return { kind: 'unknown' };
  const { access } = resolved.route;
  if (access === 'public') return { kind: 'allow' };
  if (auth.status === 'loading') return { kind: 'loading' };
  if (!auth.role) return { kind: 'login' };
  if (!access.includes(auth.role)) return { kind: 'denied', role: auth.role, required: access };
  return { kind: 'allow' };
}

/** Whether a remote shows this path to this person: the shell's activity function. */
export const remoteShows = (remote: RemoteName, pathname: string, auth: { status: 'loading' | 'ready'; role: Role | null }) =>
  resolve(pathname)?.route.remote === remote && decide(pathname, auth).kind === 'allow';

export interface NavItem {
  /** The page's path with the view it opens (`/courses?filter=assigned`). */
  href: string;
  label: string;
  count?: NavigationEntry['count'];
}

/** The links of a person's header: only what the guard lets them open, and what their role is given. */
export const navigationFor = (role: Role): NavItem[] =>
  NAVIGATION.filter((entry) => !entry.roles || entry.roles.includes(role))
    .map(({ route, label, search, count }) => ({ path: build(route, []), href: build(route, []) + (search ?? ''), label, count }))
    .filter((item) => decide(item.path, { status: 'ready', role }).kind === 'allow')
    .map(({ path: _path, ...item }) => item);

/**
 * The link of the current page: the longest path the address is, or lies under; among links to one
 * page, the one whose view (`?filter=assigned`) the address opens, else the one without a view.
 */
export const currentNavItem = (items: readonly NavItem[], pathname: string, search = ''): NavItem | null => {
  const current = new URLSearchParams(search);
  const scored = items.flatMap((item) => {
    const [path, query = ''] = item.href.split('?');
    if (pathname !== path && !pathname.startsWith(`${path}/`)) return [];
    const wanted = [...new URLSearchParams(query)];
    if (!wanted.every(([key, value]) => current.get(key) === value)) return [];
    return [{ item, score: path.length * 10 + wanted.length }];
  });
  return scored.sort((a, b) => b.score - a.score)[0]?.item ?? null;
};
