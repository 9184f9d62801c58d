import type { ServiceName } from '@portal/contracts';

/**
 * Which service answers which public prefix. The spec's paths, under /api. `gatewayRoutes`: the
 * gateway answers some paths under the prefix itself (before its proxy), so a request there always
 * goes through Express; under any other prefix, it goes straight to the proxy (`proxiedDirectly`).
 */
export const ROUTE_TABLE: Array<{ prefix: string; service: ServiceName; gatewayRoutes?: true }> = [
  // A learner's SCORM attempts are progress's; the rest of /api/scorm (packages, launch) is content's. First match wins.
  { prefix: '/api/scorm/attempts', service: 'progress' },
  { prefix: '/api/auth', service: 'auth' },
  { prefix: '/api/users', service: 'auth' },
  { prefix: '/api/applications', service: 'auth' },
  { prefix: '/api/consent', service: 'auth' },
  // The export and the anonymisation are carried out by the gateway (privacy/).
  { prefix: '/api/subject-requests', service: 'auth', gatewayRoutes: true },
  { prefix: '/api/staff-import', service: 'auth' },
  { prefix: '/api/directory', service: 'auth' },
  { prefix: '/api/courses', service: 'content' },
  { prefix: '/api/blocks', service: 'content' },
  { prefix: '/api/quizzes', service: 'content' },
  { prefix: '/api/upload', service: 'content' },
  { prefix: '/api/files', service: 'content' },
  { prefix: '/api/generations', service: 'content' },
  { prefix: '/api/scorm', service: 'content' },
  // A SCORM package's files, outside /api: a sandboxed frame's requests carry `Origin: null`.
  { prefix: '/scorm', service: 'content' },
  { prefix: '/api/progress', service: 'progress' },
  { prefix: '/api/attempts', service: 'progress' },
  { prefix: '/api/results', service: 'progress' },
  { prefix: '/api/assignments', service: 'progress' },
  { prefix: '/api/certificates', service: 'progress' },
  { prefix: '/api/notifications', service: 'progress' },
  { prefix: '/api/reviews', service: 'progress' },
  { prefix: '/api/candidate-links', service: 'progress' },
  { prefix: '/api/programs', service: 'progress' },
  { prefix: '/api/program-assignments', service: 'progress' },
  { prefix: '/api/organizations', service: 'crm' },
  { prefix: '/api/contacts', service: 'crm' },
  // A curator's history is the gateway's (dashboard/history.ts); an administrator's goes on to the audit service.
  { prefix: '/api/audit', service: 'audit', gatewayRoutes: true },
];

const entryFor = (pathname: string) =>
  ROUTE_TABLE.find(({ prefix }) => pathname === prefix || pathname.startsWith(`${prefix}/`)) ?? null;

export const serviceFor = (pathname: string): ServiceName | null => entryFor(pathname)?.service ?? null;

/** An API path the gateway only passes on to its service: no route of the gateway's own is under its prefix. */
export const proxiedDirectly = (pathname: string): boolean => {
  const entry = entryFor(pathname);
  return entry !== null && !entry.gatewayRoutes && pathname.startsWith('/api/');
};
