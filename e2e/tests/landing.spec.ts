import { expect, test, type Locator, type Page } from '@playwright/test';
import { landingRendered, seriousViolations, signIn, watchConsole } from './helpers';

const SECTIONS = [
  { link: 'Как это работает', id: 'how-it-works', heading: 'Как это работает' },
  { link: 'Преимущества', id: 'advantages', heading: 'Преимущества' },
  { link: 'О проекте', id: 'about', heading: 'О проекте' },
  { link: 'Вопросы', id: 'faq', heading: 'Частые вопросы' },
];

const sectionNav = (page: Page) => page.getByRole('navigation', { name: 'Разделы страницы' });
const faqHeaders = (page: Page) => page.locator('#faq').getByRole('button');
const opacityOf = (locator: Locator) => locator.evaluate((el) => Number(getComputedStyle(el).opacity));

/**
 * Headless Chromium draws without a GPU, and there the formulas' endless drift keeps a whole core
 * busy while the landing is open (about 1.1 CPU-seconds per second, measured), which slows the
 * journey running beside it. Journeys that are not about the drift hold the formulas still; the
 * drift itself is checked by «the formula background moves…».
 */
test.beforeEach(async ({ page }, testInfo) => {
  if (testInfo.title.startsWith('the formula background moves')) return;
  await page.addInitScript(() => {
    const still = document.createElement('style');
    still.textContent = '[data-testid="formula-background"] > span { animation-play-state: paused !important; }';
    document.addEventListener('DOMContentLoaded', () => document.head.append(still), { once: true });
  });
});

/**
 * Reads the page to the end as a visitor would: each card is brought into view in turn, and the
 * journey waits until that card has appeared (and, at the end, until every card has finished rising),
 * so it depends on what the page does, not on how fast this machine scrolls.
 */
async function readToTheEnd(page: Page) {
  const cards = page.getByTestId('reveal-card');
  await expect(cards).toHaveCount(16); // 4 steps, 6 advantages, 6 questions
  for (const card of await cards.all()) {
    await card.scrollIntoViewIfNeeded();
    await expect(card).toHaveAttribute('data-revealed', 'true');
  }
  await expect.poll(() => cards.evaluateAll((els) => els.filter((el) => getComputedStyle(el).opacity !== '1').length)).toBe(0);
}

/** Transitions and finite animations still running (the formulas' endless drift does not count). */
const runningTransitions = (page: Page) =>
  page.evaluate(
    () =>
      document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity).length,
  );

test('the landing shows its sections in Russian, dark by default, with the figures marked as claims', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Создавайте курсы для обучения сотрудников с помощью ИИ');
  expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
  await expect(page.getByTestId('formula-background')).toBeAttached();

  await expect(page.locator('#how-it-works li')).toHaveCount(4);
  await expect(page.locator('#how-it-works h3')).toHaveText([
    'Опишите тему',
    'ИИ создаст структуру',
    'Настройте контент',
    'Запустите курс',
  ]);
  await expect(page.locator('#advantages li')).toHaveCount(6);
  await expect(faqHeaders(page)).toHaveCount(6);
  await expect(page.getByRole('heading', { name: 'О проекте' })).toBeAttached();

  // Every marketing figure carries the mark that sends the reader to the note saying what they are.
  const claims = page.locator('#about dd');
  await expect(claims).toHaveText(['90 %*', '+40 %*', '100+*', '190+*', '50 000+*', '95 %*']);
  await expect(page.locator('#about dl')).toHaveAttribute('aria-describedby', 'claims-note');
  await expect(page.locator('#claims-note')).toContainText('это заявления, а не измеренные показатели этого портала');

  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('navigation', { name: 'Компания' }).getByRole('listitem')).toHaveText([
    'О нас',
    'Блог скоро',
    'Карьера скоро',
    'Пресса скоро',
  ]);
  await expect(footer.getByRole('navigation', { name: 'Правовая информация' }).getByRole('listitem')).toHaveText([
    'Политика конфиденциальности скоро',
    'Условия использования скоро',
    'Файлы cookie скоро',
  ]);
  await expect(footer.getByRole('link', { name: 'О нас' })).toHaveAttribute('href', '#about');
  expect(errors).toEqual([]);
});

test('every anchor scrolls to its section, and Узнать больше to how-it-works', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/');
  for (const section of SECTIONS) {
    await sectionNav(page).getByRole('link', { name: section.link, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/#${section.id}$`));
    await expect(page.getByRole('heading', { level: 2, name: section.heading })).toBeInViewport();
  }

  await page.getByRole('banner').getByRole('link', { name: 'Учебный портал' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();

  await page.getByRole('link', { name: 'Узнать больше' }).click();
  await expect(page).toHaveURL(/\/#how-it-works$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Как это работает' })).toBeInViewport();
  expect(errors).toEqual([]);
});

test('opening /#faq directly lands on the FAQ once the page has loaded', async ({ page }) => {
  await page.goto('/#faq');
  await expect(page.getByRole('heading', { level: 2, name: 'Частые вопросы' })).toBeInViewport();
});

test.describe('the first view comes with the page', () => {
  const hero = (page: Page) =>
    page.getByRole('heading', { level: 1, name: 'Создавайте курсы для обучения сотрудников с помощью ИИ' });

  test.describe('with scripts off', () => {
    test.use({ javaScriptEnabled: false });

    test('/ shows the header and the hero, and the calls to action are links to sign-in', async ({ page }) => {
      await page.goto('/');
      await expect(hero(page)).toBeVisible();
      await expect(page.getByRole('link', { name: 'Начать обучение' })).toHaveAttribute('href', '/auth');
      await expect(page.getByRole('link', { name: 'Войти' })).toHaveAttribute('href', '/auth');
      await expect(sectionNav(page).getByRole('link')).toHaveText(SECTIONS.map((s) => s.link));
      // The theme switch needs the scripts: it waits for them rather than ignore a press.
      await expect(page.getByRole('button', { name: 'Светлая тема' })).toBeDisabled();
      await expect(page.getByText('Загрузка...')).toBeHidden();
      await page.getByRole('link', { name: 'Начать обучение' }).click();
      await expect(page).toHaveURL(/\/auth$/);
    });
  });

  test('it is the visitor’s dark page: a light-theme visitor or a signed-in one waits for their own instead', async ({
    page,
  }) => {
    // The page's own scripts never come: only its inline boot script runs, under the gateway's policy.
    await page.route(/\.js(\?|$)/, (route) => route.abort());
    await page.goto('/');
    await expect(hero(page)).toBeVisible();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);

    await page.evaluate(() => localStorage.setItem('darkMode', 'false'));
    await page.reload();
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
    await expect(hero(page)).toBeHidden();
    await expect(page.getByText('Загрузка...')).toBeVisible();

    await page.evaluate(() => {
      localStorage.removeItem('darkMode');
      localStorage.setItem('authToken', 'a-stored-session');
    });
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect(hero(page)).toBeHidden();
    await expect(page.getByText('Загрузка...')).toBeVisible();
  });

  test('the landing renders over it in place: one header, one hero, nothing moves', async ({ page }) => {
    // The shell's script is held back until the first view has been looked at.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/main.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'commit' });
    await expect(hero(page)).toBeVisible();
    const before = await hero(page).boundingBox();
    expect(before).not.toBeNull();
    release();
    await landingRendered(page);
    await expect(hero(page)).toHaveCount(1);
    await expect(page.getByRole('banner')).toHaveCount(1);
    expect(await hero(page).boundingBox()).toEqual(before);
    const shifts = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) total += (entry as unknown as { value: number }).value;
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(total), 100);
        }),
    );
    expect(shifts).toBe(0);
    await expect(page.getByRole('button', { name: 'Светлая тема' })).toBeEnabled();
  });
});

test('Начать обучение and Начать бесплатно lead to /auth; Посмотреть демо opens /demo/course-editor', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/');
  await page.getByRole('link', { name: 'Начать обучение' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { name: 'Вход в систему' })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('link', { name: 'Начать бесплатно' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByLabel('Email')).toBeVisible();

  await page.goBack();
  await page.getByRole('link', { name: 'Войти' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  await page.goBack();
  const demo = page.getByRole('link', { name: 'Посмотреть демо' });
  await expect(demo).toHaveAttribute('href', '/demo/course-editor');
  await demo.click();
  await expect(page).toHaveURL(/\/demo\/course-editor$/);
  expect(errors).toEqual([]);
});

test('the FAQ opens and closes by keyboard, and states the free plan limit of 3 courses', async ({ page }) => {
  await page.goto('/#faq');
  const headers = faqHeaders(page);
  const first = headers.first();
  await first.focus();
  await expect(first).toHaveAttribute('aria-expanded', 'false');
  const panel = page.locator(`#${await first.getAttribute('aria-controls')}`);
  await expect(panel).toBeHidden();

  await page.keyboard.press('Enter');
  await expect(first).toHaveAttribute('aria-expanded', 'true');
  await expect(panel).toBeVisible();
  await expect(page.getByRole('region', { name: await first.innerText() })).toBeVisible();

  await page.keyboard.press('Space');
  await expect(first).toHaveAttribute('aria-expanded', 'false');
  await expect(panel).toBeHidden();

  // Arrow keys, Home and End move between the questions.
  await page.keyboard.press('ArrowDown');
  await expect(headers.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(headers.last()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(headers.last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(first).toBeFocused();

  // Tab reaches the pricing question; its answer gives the free plan's limit.
  const pricing = headers.filter({ hasText: 'Есть ли бесплатный тариф?' });
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(pricing).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Есть ли бесплатный тариф?' })).toContainText('можно создать до 3 курсов');
  await page.keyboard.press('Enter');
  await expect(pricing).toHaveAttribute('aria-expanded', 'false');
});

test('cards become visible on scroll: a tenth of the card in view, 50 px above the bottom edge', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/');
  const card = page.locator('#advantages li').first();
  await expect(card).toHaveAttribute('data-revealed', 'false');
  expect(await opacityOf(card)).toBe(0);

  // Place the card's top edge a given distance above the bottom of the window.
  const showTop = (px: number) =>
    card.evaluate((el, px) => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      window.scrollTo({ top: top - window.innerHeight + px, behavior: 'instant' });
    }, px);

  // Inside the window but within the 50 px bottom margin: not yet.
  await showTop(45);
  await page.waitForTimeout(300);
  await expect(card).toHaveAttribute('data-revealed', 'false');

  // 50 px margin plus more than a tenth of the card's height: it appears and stays.
  const height = await card.evaluate((el) => el.getBoundingClientRect().height);
  await showTop(50 + Math.ceil(height * 0.1) + 8);
  await expect(card).toHaveAttribute('data-revealed', 'true');
  await expect.poll(() => opacityOf(card)).toBe(1);
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await expect(card).toHaveAttribute('data-revealed', 'true');

  // Steps and FAQ cards do the same.
  await page.locator('#how-it-works li').last().scrollIntoViewIfNeeded();
  await expect(page.locator('#how-it-works li').last()).toHaveAttribute('data-revealed', 'true');
  await page.locator('#faq h3').last().scrollIntoViewIfNeeded();
  await expect(page.locator('#faq [data-testid="reveal-card"]').last()).toHaveAttribute('data-revealed', 'true');
  expect(errors).toEqual([]);
});

test('the formula background moves, and stops when the tab is hidden or the hero scrolled away', async ({ page }) => {
  await page.goto('/');
  const layer = page.getByTestId('formula-background');
  const formula = layer.locator('span').first();
  const playState = () => formula.evaluate((el) => getComputedStyle(el).animationPlayState);
  await expect(layer).toHaveAttribute('data-paused', 'false');
  expect(await formula.evaluate((el) => getComputedStyle(el).animationName)).not.toBe('none');
  expect(await playState()).toBe('running');

  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect(layer).toHaveAttribute('data-paused', 'true');
  expect(await playState()).toBe('paused');
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect(layer).toHaveAttribute('data-paused', 'false');

  await page.locator('#faq').scrollIntoViewIfNeeded();
  await expect(layer).toHaveAttribute('data-paused', 'true');
});

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('the formulas stand still and the cards are simply there', async ({ page }) => {
    await page.goto('/');
    await landingRendered(page);
    const formula = page.getByTestId('formula-background').locator('span').first();
    expect(await formula.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    const card = page.locator('#faq [data-testid="reveal-card"]').last();
    await expect(card).toHaveAttribute('data-revealed', 'false');
    expect(await opacityOf(card)).toBe(1);
  });
});

test('a signed-in visitor sees a link to their portal home instead of the sign-in buttons', async ({ page }) => {
  await signIn(page, 'curator@portal.local', 'Portal-Kur-2026', '/');
  const portal = page.getByRole('link', { name: 'Перейти в портал' });
  await expect(portal).toHaveCount(3); // header, hero, closing call to action
  await expect(portal.first()).toHaveAttribute('href', '/dashboard');
  await expect(page.getByRole('link', { name: 'Начать обучение' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Начать бесплатно' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Войти' })).toHaveCount(0);
  await portal.nth(1).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/');
  await page.evaluate(() => localStorage.removeItem('authToken'));
  await signIn(page, 'client@portal.local', 'Portal-Kli-2026', '/');
  await expect(page.getByRole('link', { name: 'Перейти в портал' }).first()).toHaveAttribute('href', '/courses');
});

test.describe('axe finds no serious or critical violations', () => {
  test('on the landing in the dark theme, read to the end', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await readToTheEnd(page);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on the landing in the light theme, read to the end', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Светлая тема' }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    await readToTheEnd(page);
    // Colours are checked once the theme's colour transition has ended.
    await expect.poll(() => runningTransitions(page)).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on /auth', async ({ page }) => {
    await page.goto('/auth');
    await expect(page.getByRole('heading', { name: 'Вход в систему' })).toBeVisible();
    await expect.poll(() => runningTransitions(page)).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
