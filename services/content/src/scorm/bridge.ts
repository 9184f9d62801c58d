import { readFileSync } from 'node:fs';
import { SCORM_FILES_PATH } from '@portal/contracts';

/** Where every served page loads the runtime API from, under its own launch token. */
export const BRIDGE_PATH = '__portal__/bridge.js';

/**
 * Runs in the package's frame after scorm-again's CrossFrameAPI: `window.API` (1.2) and
 * `window.API_1484_11` (2004) answer by postMessage to the portal's page (its origin only), which holds the real
 * runtime. The frame the portal opened (its parent is the top window) may carry the learner's last
 * committed values in its address, `#cmi=<base64url of {"cmi.location": "…", …}>`: they are put in
 * the API's cache, so a SCO's first GetValue calls answer at once (CrossFrameAPI otherwise answers ""
 * until its first round trip). Plain ES5: it runs in whatever browser plays the package.
 */
export const BRIDGE_INIT = `(function () {
  // The portal's page is at the address this file came from; a sandboxed frame's own origin is opaque,
  // but its address is not: messages go to the portal only, never to whatever else framed the page.
  var api = new CrossFrameAPI(window.location.protocol + '//' + window.location.host, window.top);
  try {
    var hash = window.parent === window.top ? String(window.location.hash || '') : '';
    if (hash.indexOf('#cmi=') === 0) {
      var b64 = hash.slice(5).replace(/-/g, '+').replace(/_/g, '/');
      while (b64.length % 4) b64 += '=';
      var seed = JSON.parse(decodeURIComponent(escape(window.atob(b64))));
      if (seed && typeof seed === 'object') {
        for (var key in seed) {
          if (Object.prototype.hasOwnProperty.call(seed, key) && seed[key] !== null && typeof seed[key] !== 'object') {
            api._cache.set(key, String(seed[key]));
          }
        }
      }
    }
  } catch (e) {
    // A damaged seed only costs the first answers: the API reads them from the portal instead.
  }
  window.API = api;
  window.API_1484_11 = api;
})();
`;

let bridgeOnce: string | null = null;

/** scorm-again's CrossFrameAPI followed by BRIDGE_INIT, read from the package once per process. */
export function bridgeScript(): string {
  bridgeOnce ??= `${readFileSync(require.resolve('scorm-again/cross-frame-api/min'), 'utf8')}\n${BRIDGE_INIT}`;
  return bridgeOnce;
}

/** The script element a page gets, first in its <head> (or first of all when it has none). */
export const bridgeTag = (token: string) => `<script src="${SCORM_FILES_PATH}/${token}/${BRIDGE_PATH}"></script>`;

/** A package's HTML page with the bridge loaded before any of its own scripts. */
export function injectBridge(html: string, token: string): string {
  const tag = bridgeTag(token);
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return `${html.slice(0, head.index + head[0].length)}${tag}${html.slice(head.index + head[0].length)}`;
  // No <head>: after the doctype and <html> if there are, so the page keeps its standards mode.
  const opening = /^(\s*(<!doctype[^>]*>)?\s*(<html(\s[^>]*)?>)?)/i.exec(html);
  const at = opening ? opening[0].length : 0;
  return `${html.slice(0, at)}${tag}${html.slice(at)}`;
}
