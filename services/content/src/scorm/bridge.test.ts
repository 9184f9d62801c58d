/**
 * @jest-environment jsdom
 */
import { BRIDGE_INIT, bridgeScript, bridgeTag, injectBridge } from './bridge';

// The test runs in jsdom's window (the top one: its parent is itself); no DOM types in the tests' build.
type Page = { eval(script: string): unknown; location: { hash: string; href: string } } & Record<string, any>;
const page = globalThis as unknown as Page;

const seedHash = (cmi: Record<string, unknown>) => `#cmi=${Buffer.from(JSON.stringify(cmi)).toString('base64url')}`;

/** The bridge as a launch page at this fragment runs it. */
function run(script: string, hash = '') {
  page.location.hash = hash;
  page.eval(script);
  return page;
}

describe('the runtime bridge in a package frame', () => {
  it('answers the first GetValue calls at once from the values in the launch address (scorm-again itself)', () => {
    const win = run(
      bridgeScript(),
      seedHash({ 'cmi.location': 'page-3', 'cmi.suspend_data': 'Страница 3 из 5', 'cmi.entry': 'resume' }),
    );
    expect(win.API_1484_11).toBe(win.API);
    expect(win.API_1484_11.GetValue('cmi.location')).toBe('page-3');
    expect(win.API_1484_11.GetValue('cmi.suspend_data')).toBe('Страница 3 из 5');
    expect(win.API.LMSGetValue('cmi.entry')).toBe('resume');
  });

  it('starts empty without a seed, and ignores a damaged one or another fragment', () => {
    for (const hash of ['', '#page=2', '#cmi=%%%not-base64', `#cmi=${Buffer.from('[1,2]').toString('base64url')}`]) {
      const win = run(bridgeScript(), hash);
      expect(win.API_1484_11.GetValue('cmi.location')).toBe('');
    }
  });

  it('puts only plain values in the cache, and talks to the portal at its own origin in the top window', () => {
    const fake = `function CrossFrameAPI(origin, target) { window.__made = [origin, target === window.top]; this._cache = { set: function (k, v) { window.__calls.push([k, v]); } }; }`;
    const win = run(
      `window.__calls = []; ${fake}\n${BRIDGE_INIT}`,
      seedHash({ 'cmi.core.lesson_location': 'p2', 'cmi.core.score.raw': 80, nested: { a: 1 }, gone: null }),
    );
    expect(win.__made).toEqual([new URL(page.location.href).origin, true]);
    expect(win.__calls).toEqual([
      ['cmi.core.lesson_location', 'p2'],
      ['cmi.core.score.raw', '80'],
    ]);
  });
});

describe('putting the bridge in a page', () => {
  const tag = bridgeTag('abc.def');

  it('goes first in <head>, before any script of the page', () => {
    expect(injectBridge('<!DOCTYPE html><html><head lang="ru"><script>x()</script></head></html>', 'abc.def')).toBe(
      `<!DOCTYPE html><html><head lang="ru">${tag}<script>x()</script></head></html>`,
    );
  });

  it('goes after the doctype and <html> of a page without <head>, or at the very start', () => {
    expect(injectBridge('<!doctype html>\n<html><body>Привет</body></html>', 'abc.def')).toBe(
      `<!doctype html>\n<html>${tag}<body>Привет</body></html>`,
    );
    expect(injectBridge('<p>фрагмент</p>', 'abc.def')).toBe(`${tag}<p>фрагмент</p>`);
  });

  it('is loaded from the launch token’s own path', () => {
    expect(tag).toBe('<script src="/scorm/abc.def/__portal__/bridge.js"></script>');
  });
});
