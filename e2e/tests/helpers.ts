import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { CONSENT_DOCUMENT, type AuthResponse } from '@portal/contracts';
import { DEFAULT_PORTS, type ServiceName } from '@portal/contracts/ports';
import { homePathFor } from '@portal/contracts/roles';
import { startProcess, type ManagedProcess } from '@portal/devstack/processes';
import { ROOT, freePort } from '@portal/devstack/util';
import { E2E_PORT_OFFSET, E2E_STACK_FILE } from '../env';

/** Collects console errors and page crashes, so a test can assert there were none. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/** axe-core itself, the build @axe-core/playwright ships with. */
const AXE_SOURCE = readFileSync(
  require.resolve('axe-core/axe.min.js', { paths: [path.dirname(require.resolve('@axe-core/playwright'))] }),
  'utf8',
);

interface AxeViolation {
  id: string;
  impact?: string | null;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/**
 * Serious and critical axe findings (WCAG 2.0/2.1 A and AA and best practice), each as "rule: selector — why".
 * Every rule runs; only the violations are gathered node by node (axe's resultTypes), not the passes and
 * the inapplicable rules nobody reads here: the same findings, in less time.
 *
 * axe-core runs as @axe-core/playwright's legacy mode runs it: put into every frame of the page, allowed
 * to ask same-origin frames only, then `axe.run` on the document. Here it is put into a frame only when
 * that document does not have it yet. The builder evaluates its 550 KB source twice a frame on every call,
 * and by default also opens a blank page to finish each run: about 1.1 s a call on this host, against
 * about 0.3 s here (0.15 s for a second call on the same document, the walk's other theme).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  for (const frame of page.frames()) {
    const inject = async () => {
      if (await frame.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object')) return;
      await frame.evaluate(AXE_SOURCE);
      await frame.evaluate(`axe.configure({ allowedOrigins: ['<same_origin>'] })`);
    };
    // A frame other than the page's own may be gone or not yet loaded: it is left out, as the builder leaves it.
    if (frame === page.mainFrame()) await inject();
    else await inject().catch(() => undefined);
  }
  const violations = await page.evaluate(
    async (values) =>
      (
        await (
          window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: AxeViolation[] }> } }
        ).axe.run(document, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] })
      ).violations,
    ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary ?? ''}`));
}

/** The screen as it is now has no serious or critical axe violation (called by the journeys on each screen they visit). */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect(await seriousViolations(page), `axe on ${screen}`).toEqual([]);
}

/**
 * `/` comes with the landing's first view in the page (mf-landing/src/prerender.tsx); the landing
 * then renders over it. A journey that reads the live landing (computed styles, the remote's state)
 * waits for that.
 */
export async function landingRendered(page: Page): Promise<void> {
  await expect(page.locator('[data-prerendered]')).toHaveCount(0);
}

/** Where the portal keeps the session token (web-core's api.ts). */
const TOKEN_KEY = 'authToken';

/** Signs in through the form on /auth, as a person does (the journeys about signing in use this). */
export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(page).not.toHaveURL(/\/auth$/);
}

/**
 * Signs in over the API and opens `to` (the person's home page unless given) with the token in
 * place, as the form would leave it: journeys that are not about signing in spend no time on the form.
 * The token is put in this tab once, before its next page loads, so a later sign-out still holds.
 * The person has consented to the current text (as the dialog at the first sign-in would have them
 * do; an account registered over the API has not): pass `{ consent: false }` to leave it to the page.
 */
export async function signIn(
  page: Page,
  email: string,
  password: string,
  to?: string,
  { consent = true }: { consent?: boolean } = {},
): Promise<void> {
  const answer = await page.request.post('/api/auth/login', { data: { email, password } });
  expect(answer.status(), `sign-in of ${email}`).toBe(200);
  const { token, user } = (await answer.json()) as AuthResponse;
  if (consent) await acceptConsent(page.request, token);
  await page.addInitScript(
    ([key, value]) => {
      if (window !== window.top) return; // embedded players and sandboxed frames have no storage of ours
      const seeded = `e2e-seeded:${value}`;
      if (sessionStorage.getItem(seeded)) return;
      sessionStorage.setItem(seeded, '1');
      localStorage.setItem(key, value);
    },
    [TOKEN_KEY, token] as const,
  );
  await page.goto(to ?? homePathFor(user.role));
}

/** Records the person's consent to the current text over the API (200 when it is already in force). */
export async function acceptConsent(request: APIRequestContext, token: string): Promise<void> {
  const answer = await request.post('/api/consent', {
    headers: { authorization: `Bearer ${token}` },
    data: { version: CONSENT_DOCUMENT.version },
  });
  expect(answer.status(), 'consent').toBeLessThan(300);
}

let counter = 0;
export const uniqueEmail = (tag: string) => `${tag}.${Date.now().toString(36)}.${counter++}@example.test`;

/**
 * Journeys that stop a service of the shared stack carry this tag: they run in a project of their
 * own, one at a time, after every other journey (playwright.config.ts), so no journey meets the outage.
 * A journey that needs a service down or started differently uses a portal of its own instead
 * (startOwnPortal), and runs beside the others.
 */
export const OUTAGE = { tag: '@outage' } as const;

/**
 * Journeys that need the portal to themselves without stopping anything (the dashboard's latest ten
 * actions of everyone, which journeys running beside it would push out) run in that same project.
 */
export const ALONE = { tag: '@alone' } as const;

/** How the global setup started the shared stack (its environment and ports). */
export const e2eStack = (): { env: Record<string, string>; ports: Record<string, number> } =>
  JSON.parse(readFileSync(E2E_STACK_FILE, 'utf8')) as {
    env: Record<string, string>;
    ports: Record<string, number>;
  };

/** A gateway of a journey's own, in front of its own processes of some services and the shared stack's others. */
export interface OwnPortal {
  /** The gateway's address: the journey opens absolute addresses under it. */
  url: string;
  /** Stops the portal's own process of a service; the shared stack's keeps serving every other journey. */
  stop(name: ServiceName): Promise<void>;
  /** Starts it again as it was, with `changes` to its environment when a journey needs them. */
  start(name: ServiceName, changes?: Record<string, string>): Promise<void>;
  /** Stops everything the portal started. */
  close(): Promise<void>;
}

/**
 * Starts the given services (each with changes to the shared stack's environment, such as a mail
 * server) and a gateway that sends their routes to them, on free ports, against the shared store
 * and queues: a replica, as the stack's PORTAL_REPLICAS would start, that only this gateway reaches.
 * A journey that stops or reconfigures a service does it here, so it needs no quiet stack.
 */
export async function startOwnPortal(services: Partial<Record<ServiceName, Record<string, string>>>): Promise<OwnPortal> {
  const stack = e2eStack();
  const names = Object.keys(services) as ServiceName[];
  const ports = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await freePort()] as const))) as Record<
    ServiceName,
    number
  >;
  // The gateway serves its metrics on a port of their own (PORT + 1000 unless told): a free one too.
  const [gatewayPort, metricsPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${gatewayPort}`;
  const logDir = path.join(ROOT, '.data/logs/e2e');
  const processes = new Map<ServiceName | 'gateway', ManagedProcess>();

  const answers = async (probe: string) => {
    try {
      return (await fetch(probe, { signal: AbortSignal.timeout(1000) })).ok;
    } catch {
      return false;
    }
  };
  const launch = async (name: ServiceName | 'gateway', port: number, env: Record<string, string>) => {
    const entry = name === 'gateway' ? 'gateway/dist/index.js' : `services/${name}/dist/index.js`;
    const proc = startProcess(`own-${name}-${port}`, process.execPath, [path.join(ROOT, entry)], {
      // Built output loads the built packages: without the source condition this runner has.
      env: { ...process.env, NODE_OPTIONS: '', ...stack.env, ...env, PORT: String(port) },
      logDir,
    });
    processes.set(name, proc);
    const probe = `http://127.0.0.1:${port}${name === 'gateway' ? '/remotes.json' : '/healthz'}`;
    await expect
      .poll(
        () => {
          if (proc.child.exitCode !== null) throw new Error(`${name} exited with ${proc.child.exitCode} (${logDir})`);
          return answers(probe);
        },
        { timeout: 30_000, message: `own ${name} starts` },
      )
      .toBe(true);
  };
  // Links a service puts in a mail lead to the portal it serves.
  const start = (name: ServiceName, changes: Record<string, string> = {}) =>
    launch(name, ports[name], { PUBLIC_URL: url, ...services[name], ...changes });
  const stop = async (name: ServiceName | 'gateway') => {
    await processes.get(name)?.stop();
    processes.delete(name);
  };
  const close = () => Promise.all([...processes.keys()].map(stop)).then(() => undefined);

  try {
    await Promise.all(names.map((name) => start(name)));
    const upstreams = Object.fromEntries(names.map((name) => [`${name.toUpperCase()}_URL`, `http://127.0.0.1:${ports[name]}`]));
    await launch('gateway', gatewayPort, { ...upstreams, METRICS_PORT: String(metricsPort) });
  } catch (err) {
    await close();
    throw err;
  }
  return { url, stop, start, close };
}

/** One moment a progress bar was on screen: its name, value and the text of the dialog around it. */
export interface SeenProgress {
  name: string | null;
  value: number;
  valueText: string;
  dialog: string;
  text: string;
}
type ProgressWindow = Window & { __progressSeen?: SeenProgress[] };

/**
 * Without a provider the template builds in well under a second, faster than a person (or a polling
 * assertion) can look. So every page records each state of every progress bar the moment it is
 * rendered, and the test asserts what was shown (taking the records clears them).
 */
export async function recordProgressBars(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: SeenProgress[] = [];
    (window as ProgressWindow).__progressSeen = seen;
    const look = () => {
      document.querySelectorAll('[role="progressbar"]').forEach((bar) => {
        const dialog = bar.closest('dialog, [role="dialog"]');
        const labelledBy = dialog?.getAttribute('aria-labelledby');
        const entry: SeenProgress = {
          name: bar.getAttribute('aria-label'),
          value: Number(bar.getAttribute('aria-valuenow')),
          valueText: bar.getAttribute('aria-valuetext') ?? '',
          dialog: (labelledBy ? document.getElementById(labelledBy)?.textContent : dialog?.getAttribute('aria-label')) ?? '',
          text: (dialog ?? bar.parentElement)?.textContent ?? '',
        };
        const last = seen[seen.length - 1];
        if (!last || last.value !== entry.value || last.text !== entry.text || last.dialog !== entry.dialog) seen.push(entry);
      });
    };
    new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}
export const takeProgressSeen = (page: Page): Promise<SeenProgress[]> =>
  page.evaluate(() => (window as ProgressWindow).__progressSeen?.splice(0) ?? []);

/** A large course arranged over the API: `modules` × `lessons` × `blocks`, titled «Модуль m», «Урок m.l». */
export interface LargeCourse {
  courseId: string;
  title: string;
  /** Lesson ids by module, in order. */
  lessonIds: string[][];
  /** What block `b` (from 1) of lesson m.l says. */
  text(m: number, l: number, b: number): string;
}

export async function arrangeLargeCourse(
  request: APIRequestContext,
  token: string,
  { modules, lessons, blocks, published = false }: { modules: number; lessons: number; blocks: number; published?: boolean },
): Promise<LargeCourse> {
  const headers = { authorization: `Bearer ${token}` };
  const post = async (path: string, data: unknown): Promise<string> => {
    const answer = await request.post(path, { headers, data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(201);
    return ((await answer.json()) as { id: string }).id;
  };
  const title = `Большой курс ${Date.now().toString(36)}`;
  const text = (m: number, l: number, b: number) => `Модуль ${m}, урок ${l}: абзац ${b}`;
  const courseId = await post('/api/courses', { title, isPublished: published });
  const status = published ? 'published' : 'draft';
  // Modules one after another (each goes after the last), lessons of different modules side by side.
  const moduleIds: string[] = [];
  for (let m = 1; m <= modules; m++)
    moduleIds.push(await post('/api/blocks', { type: 'MODULE', courseId, title: `Модуль ${m}`, status }));
  const lessonIds: string[][] = moduleIds.map(() => []);
  const fill = async (m: number) => {
    for (let l = 1; l <= lessons; l++) {
      const content = [
        { type: 'heading', content: { text: `Урок ${m}.${l}` } },
        ...Array.from({ length: blocks - 1 }, (_, b) => ({ type: 'text', content: { text: text(m, l, b + 2) } })),
      ];
      lessonIds[m - 1].push(
        await post('/api/blocks', { courseId, moduleId: moduleIds[m - 1], title: `Урок ${m}.${l}`, status, content }),
      );
    }
  };
  for (let m = 1; m <= modules; m += 4) await Promise.all([m, m + 1, m + 2, m + 3].filter((n) => n <= modules).map(fill));
  return { courseId, title, lessonIds, text };
}

/**
 * During a keyboard drag, presses `key` until the screen reader is told `text` (at most `presses`
 * times, waiting `waitMs` after each). dnd-kit measures the drop targets just after a drag starts, and an arrow pressed before
 * that moves nothing (measured: «Файл №2» над «Файл №2» after an immediate ArrowUp); a person never
 * presses that fast, a test can.
 */
export async function pressUntilAnnounced(
  page: Page,
  key: string,
  text: RegExp,
  { presses = 10, waitMs = 1000 }: { presses?: number; waitMs?: number } = {},
): Promise<void> {
  const liveRegion = page.locator('[id^="DndLiveRegion"]');
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press(key);
    try {
      await expect(liveRegion.filter({ hasText: text })).toHaveCount(1, { timeout: waitMs });
      return;
    } catch {
      // not there yet: press again
    }
  }
  await expect(liveRegion.filter({ hasText: text })).toHaveCount(1);
}

/**
 * Moves the e2e stack's progress service clock (its `/internal/clock`, on only in test stacks, with
 * the stack's internal token): `at` from now on, or back to the real time with 'reset'. The journey
 * that moves it runs alone (ALONE), so no other journey sees the days jump.
 */
export async function moveProgressClock(at: Date | 'reset'): Promise<void> {
  const stack = e2eStack();
  const res = await fetch(`http://127.0.0.1:${DEFAULT_PORTS.progress + E2E_PORT_OFFSET}/internal/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-token': stack.env.INTERNAL_TOKEN },
    body: JSON.stringify(at === 'reset' ? { reset: true } : { at: at.toISOString() }),
  });
  expect(res.status, await res.text()).toBe(200);
}
