import { readFileSync } from 'node:fs';
import { SCORM_FILES_PATH } from '@portal/contracts';

/** Where every served page loads the runtime API from, under its own launch token. */
export const BRIDGE_PATH = '__portal__/bridge.js';

/**
 * Runs in every page of a package after scorm-again's CrossFrameAPI: `window.API` (1.2) and
 * `window.API_1484_11` (2004) answer by postMessage to the portal's page, which holds the real
 * runtime. `portalOrigin` is that page's origin: on a package origin of their own (SCORM_ORIGIN) the
 * launch token's, otherwise the page's own address (a sandboxed frame's origin is opaque, its address
 * is not); messages go to the portal only, never to whatever else framed the page.
 *
 * A page whose ancestor of the same origin already holds the API (the player page, a frameset) takes
 * that one, so all frames of a SCO share one API and one cache. The frame the portal opened (its parent
 * is the top window) may carry the learner's last committed values in its address,
 * `#cmi=<base64url of {"cmi.location": "…", …}>`: they are put in the API's cache, so a SCO's first
 * GetValue calls answer at once (CrossFrameAPI otherwise answers "" until its first round trip).
 * Plain ES5: it runs in whatever browser plays the package.
 */
export const bridgeInit = (portalOrigin?: string) => `(function () {
  var portalOrigin = ${JSON.stringify(portalOrigin ?? '')} || window.location.protocol + '//' + window.location.host;
  var shared = null;
  try {
    for (var w = window.parent, depth = 0; w && w !== window && depth < 16; depth++) {
      if (w.__portalScormApi) {
        shared = w.__portalScormApi;
        break;
      }
      if (w === w.parent) break;
      w = w.parent;
    }
  } catch (e) {
    // An ancestor of another origin (the portal's page, or any page in an opaque sandbox) is not read.
  }
  if (shared) {
    window.API = shared;
    window.API_1484_11 = shared;
    return;
  }
  var api = new CrossFrameAPI(portalOrigin, window.top);
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
  window.__portalScormApi = api;
  window.API = api;
  window.API_1484_11 = api;
})();
`;

let crossFrameApiOnce: string | null = null;

/** scorm-again's CrossFrameAPI (read from the package once per process) followed by bridgeInit. */
export function bridgeScript(portalOrigin?: string): string {
  crossFrameApiOnce ??= readFileSync(require.resolve('scorm-again/cross-frame-api/min'), 'utf8');
  return `${crossFrameApiOnce}\n${bridgeInit(portalOrigin)}`;
}

/**
 * The player page on a package origin of its own (`__portal__/player.html?sco=<launch>`): it holds
 * the API and frames the SCO's page, the window.parent where the ADL discovery looks first. A launch
 * that is not a relative path inside the package is not opened.
 */
export const PLAYER_PAGE = `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<title>SCORM</title>
<script src="bridge.js"></script>
<style>html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}</style>
</head>
<body>
<iframe id="sco" title="Учебный объект"></iframe>
<script>
(function () {
  var match = /[?&]sco=([^&#]*)/.exec(window.location.search);
  var sco = '';
  try {
    sco = match ? decodeURIComponent(match[1]) : '';
  } catch (e) {
    sco = '';
  }
  var path = sco.split('?')[0].split('#')[0];
  var unsafe =
    !sco ||
    /^[a-z][a-z0-9+.-]*:/i.test(sco) ||
    sco.charAt(0) === '/' ||
    sco.indexOf(String.fromCharCode(92)) !== -1 ||
    ('/' + path + '/').indexOf('/../') !== -1;
  if (unsafe) {
    document.body.textContent = 'Учебный объект не найден в пакете';
    return;
  }
  document.getElementById('sco').src = '../' + sco;
})();
</script>
</body>
</html>
`;

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
