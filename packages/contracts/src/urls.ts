/**
 * Addresses people type into lessons and the CRM, checked with the WHATWG URL parser that browsers
 * use, so what is stored is what a browser would follow: a path on the portal's own origin or an
 * http(s) address elsewhere. `javascript:`, `data:`, `file:` and the like never pass, and neither do
 * the spellings a browser reads as another host (`//host`, `/\host`, tabs and newlines it strips).
 */

/** Stands for the portal's own origin, whatever it is: a local path must resolve onto it. */
const OWN_ORIGIN = 'https://portal.invalid';

/** Whitespace, control characters and backslashes: a browser strips or rewrites them, so the text would lie. */
const REWRITTEN = /[\s\p{Cc}\\]/u;

/** The media blocks' own message is CONTENT_MSG.urlInvalid. */
export const URL_MSG = {
  siteInvalid: 'Сайт должен быть адресом http:// или https:// (например, example.ru)',
} as const;

const parsed = (text: string, base?: string): URL | null => {
  try {
    return new URL(text, base);
  } catch {
    return null;
  }
};

const isWebAddress = (url: URL | null): url is URL =>
  url !== null &&
  (url.protocol === 'http:' || url.protocol === 'https:') &&
  url.hostname !== '' &&
  !url.username &&
  !url.password;

/** A path on the portal's own origin (`/api/files/…`): one leading slash, and it stays there. */
export const isOwnPath = (text: string): boolean =>
  text.startsWith('/') && !text.startsWith('//') && !REWRITTEN.test(text) && parsed(text, OWN_ORIGIN)?.origin === OWN_ORIGIN;

/** An absolute http(s) address with a host and no credentials in it. */
export const isWebUrl = (text: string): boolean =>
  /^https?:\/\//i.test(text) && !REWRITTEN.test(text) && isWebAddress(parsed(text));

/** Where a media block's file may live: the portal's own files or an http(s) address; blank = not uploaded yet. */
export const isMediaUrl = (text: string): boolean => text === '' || isOwnPath(text) || isWebUrl(text);

/** Anything that names a scheme (`javascript:`, `data:`…) rather than a host with a port (`example.ru:8080`). */
const NAMES_A_SCHEME = /^[a-z][a-z\d+.-]*:(?!\d+(?:[/?#]|$))/i;

/**
 * An organization's site as people write it: `https://example.ru/about`, or just `example.ru`
 * (read as https). The CRM shows it as a link, so any other scheme is refused.
 */
export const isSiteUrl = (text: string): boolean => {
  if (/^https?:\/\//i.test(text)) return isWebUrl(text);
  if (NAMES_A_SCHEME.test(text) || text.startsWith('/') || REWRITTEN.test(text)) return false;
  return isWebAddress(parsed(`https://${text}`));
};
