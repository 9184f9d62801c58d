import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { CONSENT_DOCUMENT, completeInn, type Role } from '@portal/contracts';
import { ROUTES, type RouteDefinition } from '@portal/routes';
import { seriousViolations, signIn, uniqueEmail } from './helpers';

/**
 * The walk: every route of the route table, as every role it admits (a visitor for public
 * ones), at 1366 × 768 and 375 × 812, in both themes (the second where a theme can differ: see
 * `walk`). It fails on sideways scrolling, text outside its box, a cut header item, English a person
 * would read, and a serious or critical axe finding.
 * Kept fast: one signed-in page per part of a role's routes (the parts run side by side), reused; the
 * theme is switched in place with the header's button; axe runs once per route and theme, for the
 * first role the route admits.
 */
const PRESETS: Record<Role, { email: string; password: string }> = {
  ADMIN: { email: 'admin@portal.local', password: 'Portal-Glav-2026' },
  MANAGER: { email: 'manager@portal.local', password: 'Portal-Men-2026' },
  CURATOR: { email: 'curator@portal.local', password: 'Portal-Kur-2026' },
  CLIENT: { email: 'client@portal.local', password: 'Portal-Kli-2026' },
  CANDIDATE: { email: 'candidate@portal.local', password: 'Portal-Kan-2026' },
};
const WIDE = { width: 1366, height: 768 };
const PHONE = { width: 375, height: 812 };
const tag = Date.now().toString(36);

/** Untranslated interface words and raw codes: what a person must never read (user data aside). */
const ENGLISH =
  /\b(Loading|Error|Submit|Cancel|Save|Delete|Edit|Search|Next|Previous|Back|Close|Failed|Not found|Unknown|Invalid|undefined|null|NaN|true|false|ADMIN|MANAGER|CURATOR|CLIENT|CANDIDATE|in_progress|not_started|published|draft|overdue|pending|passed|failed|mf-(?:landing|courses|editor|player|crm|dashboard))\b|\[object Object\]/;

interface Fixtures {
  courseId: string;
  moduleId: string;
  quizId: string;
  orgId: string;
  assignmentId: string;
  learnerId: string;
  programId: string;
  programAssignmentId: string;
}

/** What the parametrised routes open: a course of the preset curator with a quiz, an organization, an assignment (and a subject request to list). */
async function arrange(request: APIRequestContext): Promise<Fixtures> {
  const tokenOf = async (role: Role) =>
    ((await (await request.post('/api/auth/login', { data: PRESETS[role] })).json()) as { token: string }).token;
  const curator = { authorization: `Bearer ${await tokenOf('CURATOR')}` };
  const post = async (path: string, data: unknown, headers: Record<string, string> = curator) => {
    const answer = await request.post(path, { headers, data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
    return (await answer.json()) as { id: string; user?: { id: string } };
  };
  const course = await post('/api/courses', { title: `Обход экранов ${tag}`, description: 'Курс обхода', isPublished: true });
  const quiz = await post('/api/quizzes', {
    title: `Тест обхода ${tag}`,
    courseId: course.id,
    settings: { maxAttempts: 3, passingScore: 50 },
    questions: [
      { id: 'q', type: 'single_choice', question: 'Сколько дней?', options: ['14', '28'], correctAnswers: [1], order: 1 },
    ],
  });
  const mod = await post('/api/blocks', { type: 'MODULE', courseId: course.id, title: 'Модуль обхода' });
  await post('/api/blocks', {
    courseId: course.id,
    moduleId: mod.id,
    title: 'Урок обхода',
    status: 'published',
    content: [
      { type: 'text', content: { text: 'Текст урока.' } },
      { type: 'quiz', content: { quizId: quiz.id, questionsCount: 1 } },
    ],
  });
  const admin = { authorization: `Bearer ${await tokenOf('ADMIN')}` };
  const org = await post(
    '/api/organizations',
    { name: `ООО «Обход» ${tag}`, inn: completeInn(`79${Date.now().toString().slice(-7)}`), status: 'ACTIVE' },
    admin,
  );
  // A learner of their own, so the preset accounts' bells stay as other journeys expect them.
  const registered = await post(
    '/api/auth/register',
    {
      email: uniqueEmail('walk'),
      password: 'Kursy-Portal-42',
      fullName: `Обходов Иван ${tag}`,
      role: 'CLIENT',
      consentVersion: CONSENT_DOCUMENT.version,
    },
    {},
  );
  // /crm/subject-requests is walked with a request listed, not only as its empty state.
  await post('/api/subject-requests', { userId: registered.user!.id, kind: 'export' }, admin);
  const due = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date(Date.now() + 14 * 86_400_000));
  const assignment = await post('/api/assignments', {
    courseId: course.id,
    audience: { kind: 'users', userIds: [registered.user!.id] },
    dueDate: due,
    mandatory: true,
    recurrenceMonths: null,
    message: '',
  });
  // A program of that course, assigned to the walk's learner and the preset learners: its screens are walked filled in.
  const program = await post('/api/programs', {
    title: `Программа обхода ${tag}`,
    stages: [{ title: 'Этап обхода', courseIds: [course.id], dueDays: 14 }],
  });
  const learners = await Promise.all(
    (['CLIENT', 'CANDIDATE', 'MANAGER'] as const).map(async (role) => {
      const answer = await request.post('/api/auth/login', { data: PRESETS[role] });
      return ((await answer.json()) as { user: { id: string } }).user.id;
    }),
  );
  const programAssignment = await post('/api/program-assignments', {
    programId: program.id,
    audience: { kind: 'users', userIds: [registered.user!.id, ...learners] },
  });
  return {
    courseId: course.id,
    moduleId: mod.id,
    quizId: quiz.id,
    orgId: org.id,
    assignmentId: assignment.id,
    learnerId: registered.user!.id,
    programId: program.id,
    programAssignmentId: programAssignment.id,
  };
}

/** The address a route is visited at, its parameters filled from the fixtures. */
function addressOf(name: string, route: RouteDefinition, f: Fixtures): string {
  const value: Record<string, string> = {
    courseId: f.courseId,
    moduleId: f.moduleId,
    quizId: f.quizId,
    userId: f.learnerId,
    id:
      name === 'organization'
        ? f.orgId
        : name === 'programEditor'
          ? f.programId
          : name.startsWith('program')
            ? f.programAssignmentId
            : f.assignmentId,
    assignmentId: f.programAssignmentId,
    token: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    number: 'C-2026-ABCDEFGH',
  };
  return route.path.replace(/:(\w+)\??/g, (_, key: string) => value[key]);
}

/** The routes a role may open ('public' for a visitor), with the one role of each that runs axe. */
const routesFor = (who: Role | 'public') =>
  Object.entries(ROUTES as Record<string, RouteDefinition>).filter(([, r]) =>
    who === 'public' ? r.access === 'public' : r.access !== 'public' && r.access.includes(who),
  );
const axeRole = (route: RouteDefinition) => (route.access === 'public' ? 'public' : route.access[0]);

/** What is wrong with the screen as it is now: sideways scrolling, text outside its box, a cut header item, English. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate((english) => {
    const problems: string[] = [];
    const sideways = document.documentElement.scrollWidth - window.innerWidth;
    if (sideways > 0) problems.push(`the page scrolls sideways by ${sideways}px`);
    const where = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} «${(el.textContent ?? '').trim().slice(0, 40)}»`;

    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !node.textContent?.trim() || el.closest('script, style, noscript, option, select, textarea, svg')) continue;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      // Hidden, or visually hidden for screen readers (1 px, clipped).
      if (style.visibility !== 'visible' || box.width <= 2 || box.height <= 2) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      // Text that scrolls within its own box (a wide table's wrapper, a code block) is not outside it.
      const scrolls = ['auto', 'scroll'].includes(style.overflowX);
      const outside =
        !scrolls &&
        Array.from(range.getClientRects()).some((r) => r.width > 0 && (r.right > box.right + 2 || r.left < box.left - 2));
      const clipped = ['hidden', 'clip'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
      if (outside || clipped) problems.push(`text outside its box: ${where(el)}`);
    }

    const header = 'nav[aria-label="Основная навигация"] :is(a, button), nav[aria-label="Учётная запись"] :is(a, button)';
    for (const item of Array.from(document.querySelectorAll(header))) {
      const r = item.getBoundingClientRect();
      if (r.width === 0) continue;
      if (item.scrollWidth > item.clientWidth + 1 || r.left < -1 || r.right > window.innerWidth + 1)
        problems.push(`a cut header item: ${where(item)}`);
    }

    const words = new RegExp(english).exec(document.body.innerText);
    if (words) problems.push(`English a person reads: «${words[0]}»`);
    return problems;
  }, ENGLISH.source);
}

/** Waits for a screen to have come: the remote's files and its first reads (bounded: a slow read is the screen's state). */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expect(page.locator('[aria-busy="true"]'))
    .toHaveCount(0, { timeout: 5_000 })
    .catch(() => undefined);
}

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));
const themeButton = (page: Page) => page.getByRole('button', { name: /^(Светлая|Тёмная) тема$/ });

/** Sets the theme: with the header's button where there is one, else as the person's stored choice and a reload. */
async function useTheme(page: Page, dark: boolean) {
  if ((await isDark(page)) === dark) return;
  const button = themeButton(page).first();
  if (await button.isVisible()) await button.click();
  else {
    await page.evaluate((value) => localStorage.setItem('darkMode', value), String(dark));
    await page.reload();
    await settled(page);
  }
  await expect.poll(() => isDark(page)).toBe(dark);
  // The walk's person asks for less motion: the colours change at once, with no 600 ms fade
  // (theme-transition) for axe to wait out.
  expect(await page.evaluate(() => document.documentElement.classList.contains('theme-transition'))).toBe(false);
}

/**
 * One role's walk over some of its routes, in one page; every problem is collected and reported together.
 * Each route is checked in full (both widths, axe where it runs) in the theme the page has. The other
 * theme changes colours only (packages/ui/src/theme.ts), and the header's theme button: it is checked
 * where a colour counts (axe, at 1366 px) and, on the part's first route, the whole page (its header
 * with that button) at both widths. The theme a switch leaves is the next route's first, so both themes get the full checks.
 */
async function walk(page: Page, who: Role | 'public', routes: Array<[string, RouteDefinition]>, fixtures: Fixtures) {
  const problems: string[] = [];
  const check = async (address: string, withAxe: boolean, sizes: Array<typeof WIDE>) => {
    const theme = (await isDark(page)) ? 'тёмная' : 'светлая';
    for (const size of sizes) {
      await page.setViewportSize(size);
      const at = `${address} (${who}, ${size.width} px, ${theme})`;
      problems.push(...(await layoutProblems(page)).map((p) => `${at}: ${p}`));
      if (size === WIDE && withAxe) problems.push(...(await seriousViolations(page)).map((v) => `${at}: axe ${v}`));
    }
  };
  let bothThemesSeen = false;
  for (const [name, route] of routes) {
    const address = addressOf(name, route, fixtures);
    const withAxe = axeRole(route) === who;
    await page.setViewportSize(WIDE);
    await page.goto(address);
    await settled(page);
    await check(address, withAxe, [WIDE, PHONE]);
    if (!withAxe && bothThemesSeen) continue;
    await useTheme(page, !(await isDark(page)));
    // The page is at 375 px now: that width first, so a switch of width is spared when both are checked.
    await check(address, withAxe, bothThemesSeen ? [WIDE] : [PHONE, WIDE]);
    bothThemesSeen = true;
  }
  expect(problems).toEqual([]);
}

/**
 * Each role's routes in parts of near equal cost, about this much each: the parts run side by side on
 * the workers, so no one role's walk is left running alone at the end of the run. A route where axe
 * runs costs about three where it does not (measured: 10 s against 3.3 s a route), so the
 * administrator's 27 routes, all with axe, come in parts of four or five, the manager's 16 without in
 * parts of eight.
 */
const COST_PER_TEST = 15;
const costOf = (who: Role | 'public', [, route]: [string, RouteDefinition]) => (axeRole(route) === who ? 3 : 1);
const partCost = (who: Role | 'public', items: Array<[string, RouteDefinition]>) =>
  items.reduce((sum, item) => sum + costOf(who, item), 0);
function inParts(who: Role | 'public', items: Array<[string, RouteDefinition]>): Array<Array<[string, RouteDefinition]>> {
  const total = partCost(who, items);
  const share = total / Math.ceil(total / COST_PER_TEST);
  const parts: Array<Array<[string, RouteDefinition]>> = [[]];
  let spent = 0;
  for (const item of items) {
    // A new part once this one has its share (the last part takes what is left).
    if (spent >= share * parts.length - 0.5) parts.push([]);
    parts[parts.length - 1].push(item);
    spent += costOf(who, item);
  }
  return parts;
}

test.describe('a walk over every route', () => {
  test.describe.configure({ mode: 'parallel' });
  let fixtures: Fixtures;
  test.beforeAll(async ({ request }) => {
    fixtures = await arrange(request);
  });

  async function walkAs(browser: Browser, who: Role | 'public', routes: Array<[string, RouteDefinition]>) {
    const context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
    const page = await context.newPage();
    try {
      if (who !== 'public') await signIn(page, PRESETS[who].email, PRESETS[who].password);
      await walk(page, who, routes, fixtures);
    } finally {
      await context.close();
    }
  }

  // The costliest parts first, so the last ones to start are short (the visitor's, with the landing, leads its ties).
  const parts = (['public', ...(Object.keys(PRESETS) as Role[])] as const)
    .flatMap((who) => inParts(who, routesFor(who)).map((routes) => ({ who, routes })))
    .sort((a, b) => partCost(b.who, b.routes) - partCost(a.who, a.routes));
  for (const { who, routes } of parts)
    test(`${who === 'public' ? 'as a visitor' : `as ${who}`} over ${routes.map(([name]) => name).join(', ')}: no sideways scroll, no text outside its box, no cut header item, no English, no serious axe finding`, async ({
      browser,
    }) => {
      test.setTimeout(180_000);
      await walkAs(browser, who, routes);
    });
});
