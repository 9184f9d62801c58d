import { homePathFor, type Role } from '@portal/contracts/roles';
import { decide, paths } from './routes';

export const SIGN_IN_PATH = paths.signIn();
const RETURN_PARAM = 'next';
const MAX_RETURN_LENGTH = 2048;
// Browsers drop tabs and newlines from URLs and read "\" as "/", so "/\t/evil.com" or "/\evil.com" would leave the portal.
const isUnsafe = (raw: string) => [...raw].some((ch) => ch === '\\' || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
// Pages that are about signing in: returning to them would go round in circles.
const NOT_A_RETURN = /^\/(auth|register)?\/?$/;

/**
 * The same-origin portal path a sign-in may return to, or null: only "/<path>" on this origin is
 * accepted, so "//evil.com", "https://…" and "javascript:" never become an open redirect.
 */
export function safeReturnPath(raw: string | null | undefined, origin: string): string | null {
  if (!raw || raw.length > MAX_RETURN_LENGTH || !raw.startsWith('/') || raw.startsWith('//') || isUnsafe(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin || NOT_A_RETURN.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** /auth remembering the page a signed-out person asked for. */
export function signInPathFor(location: Pick<Location, 'pathname' | 'search' | 'hash' | 'origin'>): string {
  const back = safeReturnPath(`${location.pathname}${location.search}${location.hash}`, location.origin);
  return back ? `${SIGN_IN_PATH}?${new URLSearchParams({ [RETURN_PARAM]: back })}` : SIGN_IN_PATH;
}

/** Where a person goes after signing in: the page they asked for when they may open it, else their home. */
export function pathAfterSignIn(role: Role, location: Pick<Location, 'search' | 'origin'>): string {
  const back = safeReturnPath(new URLSearchParams(location.search).get(RETURN_PARAM), location.origin);
  if (back && decide(new URL(back, location.origin).pathname, { status: 'ready', role }).kind === 'allow') return back;
  return homePathFor(role);
}
