/**
 * @jest-environment jsdom
 */
import { bridgeInit, bridgeScript, bridgeTag, injectBridge, PLAYER_PAGE } from './bridge';

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
      `window.__calls = []; ${fake}\n${bridgeInit()}`,
      seedHash({ 'cmi.core.lesson_location': 'p2', 'cmi.core.score.raw': 80, nested: { a: 1 }, gone: null }),
    );
    expect(win.__made).toEqual([new URL(page.location.href).origin, true]);
    expect(win.__calls).toEqual([
      ['cmi.core.lesson_location', 'p2'],
      ['cmi.core.score.raw', '80'],
    ]);
  });
});

describe('the bridge on a package origin of its own (SCORM_ORIGIN)', () => {
  const fake = `function CrossFrameAPI(origin, target) { window.__made = (window.__made || 0) + 1; window.__origin = origin; this._cache = { set: function () {} }; }`;

  it('talks to the portal origin of the launch token, not to its own', () => {
    const win = run(`window.__made = 0; delete window.__portalScormApi; ${fake}\n${bridgeInit('https://learn.example.ru')}`);
    expect(win.__origin).toBe('https://learn.example.ru');
    expect(win.__made).toBe(1);
    expect(win.API_1484_11).toBe(win.__portalScormApi);
  });

  it('takes the API of an ancestor of its origin that holds one (the player page), so all frames of a SCO share one', () => {
    const held = { held: true };
    const parentWindow = { __portalScormApi: held, parent: null as unknown };
    parentWindow.parent = parentWindow;
    // The page's parent stands for the player page (a package page's real parent, on the same origin).
    page.__fakeParentObj = parentWindow;
    const again = run(
      `window.__made = 0; ${fake}\nvar __realParent = window.parent; Object.defineProperty(window, 'parent', { value: window.__fakeParentObj, configurable: true });\n${bridgeInit('https://learn.example.ru')}\nObject.defineProperty(window, 'parent', { value: __realParent, configurable: true });`,
    );
    expect(again.__made).toBe(0);
    expect(again.API_1484_11).toBe(held);
    expect(again.API).toBe(held);
  });

  it('has a player page that loads the bridge and frames only a relative path inside the package', () => {
    expect(PLAYER_PAGE).toContain('<script src="bridge.js"></script>');
    const frameSrc = (search: string) => {
      const body = { textContent: '' };
      const frame = { src: '' };
      const script = PLAYER_PAGE.slice(PLAYER_PAGE.lastIndexOf('<script>') + 8, PLAYER_PAGE.lastIndexOf('</script>'));
      new Function('window', 'document', script)({ location: { search } }, { body, getElementById: () => frame });
      return frame.src || body.textContent;
    };
    expect(frameSrc('?sco=shared%2Flaunchpage.html')).toBe('../shared/launchpage.html');
    expect(frameSrc('?sco=index.html%3Fpage%3D2')).toBe('../index.html?page=2');
    for (const bad of [
      '',
      '?sco=',
      '?sco=javascript%3Aalert(1)',
      '?sco=%2F%2Fevil.example%2Fx.html',
      '?sco=..%2F..%2Fapi',
      '?sco=a%5Cb.html',
      '?sco=%E0',
    ])
      expect(frameSrc(bad)).toBe('Учебный объект не найден в пакете');
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
