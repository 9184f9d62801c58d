/** The CRM's own routes under /crm/* (the shell's guard has already admitted the user). */
export type Screen =
  { kind: 'orgs' } | { kind: 'org'; id: string } | { kind: 'contacts' } | { kind: 'home' } | { kind: 'unknown' };

export function screenFor(pathname: string): Screen {
  const path = pathname.replace(/\/+$/, '');
  if (path === '/crm') return { kind: 'home' };
  if (path === '/crm/orgs') return { kind: 'orgs' };
  if (path === '/crm/contacts') return { kind: 'contacts' };
  const org = /^\/crm\/orgs\/([^/]+)$/.exec(path);
  if (org) {
    try {
      return { kind: 'org', id: decodeURIComponent(org[1]) };
    } catch {
      return { kind: 'unknown' }; // a malformed escape such as %E0
    }
  }
  return { kind: 'unknown' };
}
