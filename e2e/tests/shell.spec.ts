import { expect, test } from '@playwright/test';
import { expectAccessible, landingRendered, seriousViolations, signIn, watchConsole } from './helpers';

test('the shell loads and mounts the landing remote with one React and one styled-components', async ({ page }) => {
  const errors = watchConsole(page);
  // The remotes' manifest comes with the page (index.html preloads it) and is asked for only that once.
  const manifests: string[] = [];
  const warnings: string[] = [];
  page.on('request', (r) => new URL(r.url()).pathname === '/remotes.json' && manifests.push(r.resourceType()));
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Создавайте курсы');
  await expect(page.getByRole('link', { name: 'Начать обучение' })).toBeVisible();
  await landingRendered(page);
  const instances = await page.evaluate(() => {
    const w = window as unknown as { __portalInstances: { apps: string[]; react: Set<object>; styled: Set<object> } };
    return { apps: w.__portalInstances.apps, react: w.__portalInstances.react.size, styled: w.__portalInstances.styled.size };
  });
  expect(instances.apps).toEqual(expect.arrayContaining(['chrome', 'mf_landing']));
  expect(instances.react).toBe(1);
  expect(instances.styled).toBe(1);
  expect(manifests).toHaveLength(1);
  expect(warnings.filter((w) => w.includes('preload'))).toEqual([]);
  expect(errors).toEqual([]);
});

/** TanStack Query's own words, which every build of it carries: a script holding them is the query library. */
const QUERY_LIBRARY = 'No QueryClient set';
/** V8's compile hint the production build puts atop every script (`CompileHintPlugin`, webpack-config). */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/**
 * Counts what sets up ICU's number and date data in the page (a formatter, or a toLocale… call): its
 * first use is a task of 35–85 ms on this host's Chromium, which the landing does without.
 */
function countLocaleFormatting(): void {
  const seen: string[] = [];
  (window as unknown as { localeFormatting: string[] }).localeFormatting = seen;
  for (const name of ['NumberFormat', 'DateTimeFormat'] as const) {
    // Called with or without `new`, either makes a formatter.
    Intl[name] = new Proxy(Intl[name], {
      construct: (target, args) => (seen.push(name), Reflect.construct(target, args)),
      apply: (target, _self, args) => (seen.push(name), Reflect.construct(target, args)),
    }) as never;
  }
  const methods: Array<[object, string]> = [
    [Number.prototype, 'toLocaleString'],
    [Date.prototype, 'toLocaleString'],
    [Date.prototype, 'toLocaleDateString'],
    [Date.prototype, 'toLocaleTimeString'],
  ];
  for (const [proto, name] of methods) {
    const original = (proto as Record<string, (...args: unknown[]) => unknown>)[name];
    (proto as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
      seen.push(name);
      return original.apply(this, args);
    };
  }
}

test('a visitor’s landing loads no query library and formats no number or date as it loads; a signed-in page loads the library once, and the header’s bell works; every script carries the compile hint', async ({
  page,
}) => {
  await page.addInitScript(countLocaleFormatting);
  const loaded: Array<Promise<string>> = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') loaded.push(r.text().catch(() => ''));
  });
  const queryLibraries = async () => (await Promise.all(loaded)).filter((text) => text.includes(QUERY_LIBRARY)).length;

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Создавайте курсы');
  await page.waitForLoadState('networkidle');
  expect(loaded.length).toBeGreaterThan(3);
  expect(await queryLibraries()).toBe(0);
  // The whole landing has rendered (its figures included), and nothing set up ICU's formatting.
  await landingRendered(page);
  await expect(page.getByText('50 000+')).toBeAttached();
  expect(await page.evaluate(() => (window as unknown as { localeFormatting: string[] }).localeFormatting)).toEqual([]);

  await signIn(page, 'admin@portal.local', 'Portal-Glav-2026');
  await expect(page).toHaveURL(/\/dashboard$/);
  const bell = page.getByRole('button', { name: /^Уведомления/ });
  await expect(bell).toBeEnabled();
  await expect(bell.locator('svg'), 'the bell is drawn, not a glyph a font may lack').toBeVisible();
  await bell.click();
  await expect(page.getByRole('dialog', { name: 'Уведомления' })).toBeVisible();
  expect(await queryLibraries()).toBe(1);
  // Every script of both pages is compiled as it downloads, not on the main thread as it first runs
  // (a body the browser let go of on the way to the next page reads as empty, and is not judged).
  const scripts = (await Promise.all(loaded)).filter((text) => text !== '');
  expect(scripts.length).toBeGreaterThan(5);
  expect(scripts.filter((text) => !text.startsWith(COMPILE_HINT)).map((text) => text.slice(0, 80))).toEqual([]);
});

test('a remote that fails to load is contained, the rest keeps working, and Повторить loads it', async ({ page }) => {
  await page.route('**/mf/mf-dashboard/**', (route) => route.abort());
  await signIn(page, 'admin@portal.local', 'Portal-Glav-2026');
  await expect(page).toHaveURL(/\/dashboard$/);
  const failure = page.getByRole('alert').filter({ hasText: 'Не удалось загрузить раздел' });
  await expect(failure).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Основная навигация' })).toBeVisible();

  // The rest of the portal still works.
  await page.getByRole('link', { name: 'Курсы' }).click();
  await expect(page.locator('[data-mf="mf_courses"]')).toBeVisible();
  await expect(failure).toBeHidden();

  // The remote comes back: Повторить loads it without a page reload.
  await page.getByRole('link', { name: 'Главная' }).click();
  await expect(failure).toBeVisible();
  await page.unroute('**/mf/mf-dashboard/**');
  await failure.getByRole('button', { name: 'Повторить' }).click();
  await expect(page.locator('[data-mf="mf_dashboard"]')).toBeVisible();
  await expect(failure).toBeHidden();
});

test('an unknown address shows a not-found page, not a blank screen', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Страница не найдена' })).toBeVisible();
});

test('the not-found page keeps the header, so a signed-in person goes on from it', async ({ page }) => {
  await signIn(page, 'curator@portal.local', 'Portal-Kur-2026');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Страница не найдена' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Основная навигация' });
  await expect(nav).toContainText('Куратор');
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(0);
  await expectAccessible(page, 'the not-found page');
  await nav.getByRole('link', { name: 'Курсы' }).click();
  await expect(page).toHaveURL(/\/courses$/);
  await expect(page.locator('[data-mf="mf_courses"]')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Страница не найдена' })).toHaveCount(0);
});

test('the journeys’ axe check finds a serious finding in the page and in a frame of it, and none once they are gone', async ({
  page,
}) => {
  await page.goto('/auth');
  await expect(page.getByRole('button', { name: 'Войти', exact: true })).toBeVisible();
  await expectAccessible(page, '/auth');
  // A button without a name, in the page and in a same-origin frame.
  await page.evaluate(() => {
    const button = document.createElement('button');
    button.id = 'nameless';
    document.body.append(button);
    const frame = document.createElement('iframe');
    frame.title = 'Вложенная страница';
    frame.srcdoc = '<!doctype html><html lang="ru"><title>Вложенная</title><main><button id="inside"></button></main></html>';
    document.body.append(frame);
  });
  await expect(page.frameLocator('iframe[title="Вложенная страница"]').locator('#inside')).toHaveCount(1);
  const found = await seriousViolations(page);
  expect(found).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^button-name: #nameless —/),
      expect.stringMatching(/^button-name: iframe.* #inside —/),
    ]),
  );
  await page.evaluate(() => document.querySelectorAll('#nameless, iframe').forEach((el) => el.remove()));
  expect(await seriousViolations(page)).toEqual([]);
});
