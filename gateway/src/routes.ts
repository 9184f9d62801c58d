import type { ServiceName } from '@portal/contracts';

/** Which service answers which public prefix. The spec's paths, under /api. */
export const ROUTE_TABLE: Array<{ prefix: string; service: ServiceName }> = [
  // A learner's SCORM attempts are progress's; the rest of /api/scorm (packages, launch) is content's. First match wins.
  { prefix: '/api/scorm/attempts', service: 'progress' },
  { prefix: '/api/auth', service: 'auth' },
  { prefix: '/api/users', service: 'auth' },
  { prefix: '/api/applications', service: 'auth' },
  { prefix: '/api/consent', service: 'auth' },
  { prefix: '/api/subject-requests', service: 'auth' },
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
  { prefix: '/api/audit', service: 'audit' },
];

export const serviceFor = (pathname: string): ServiceName | null => {
  for (const { prefix, service } of ROUTE_TABLE) {
    if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return service;
  }
  return null;
};
