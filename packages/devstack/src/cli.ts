import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { backup, restore } from './backup';
import { buildFrontends, buildServices } from './build';
import { checkChart, ensureHelm, prepareChartChecker } from './chart';
import { isStopping, stopLaunched, stopOnSignals, type Launched } from './launcher';
import { ensureMailCatcher } from './mailCatcher';
import { installSeaweedFS } from './objectStorage';
import { startCount } from './processes';
import { SECRETS_FILE } from './secrets';
import { jestFileTimes, playwrightFileTimes, slowest, type FileTime } from './slowest';
import { startStack } from './stack';
import {
  DEFAULT_POSTGRESQL_URL,
  ensureRedis,
  ensureStore,
  installFerretDB,
  installPostgres,
  preparePostgresDatabase,
} from './store';
import { DATA_DIR, ROOT, run, runTwoAtATime, say, which } from './util';

const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function build(): Promise<void> {
  const started = Date.now();
  buildServices();
  await buildFrontends();
  say(`build finished in ${seconds(Date.now() - started)}`);
}

/** `npm start`: build, start store, Redis, services and gateway; Ctrl-C stops what we started. */
async function start(): Promise<void> {
  // Before anything starts: a Ctrl-C during the start stops what is up by then, in the same order.
  const launched: Launched = {};
  stopOnSignals(() => stopLaunched(launched));
  try {
    if (process.env.PORTAL_SKIP_BUILD !== '1') await build();
    launched.store = await ensureStore();
    launched.redis = await ensureRedis();
    launched.mail = await ensureMailCatcher();
    launched.servicesFrom = startCount();
    const stack = await startStack({
      mongoUrl: launched.store.url,
      redisUrl: launched.redis.url,
      echo: process.env.PORTAL_QUIET !== '1',
      // The links in mails lead to PUBLIC_URL, by default this gateway (the services read it from our environment).
      env: { SMTP_URL: launched.mail.smtpUrl },
    });
    say('');
    const several = Object.entries(stack.replicaPorts).filter(([, ports]) => ports.length > 1);
    if (several.length)
      say(`Replicas: ${several.map(([name, ports]) => `${name} ×${ports.length} (${ports.join(', ')})`).join('; ')}`);
    say(`The portal is running: http://127.0.0.1:${stack.ports.gateway}/`);
    say(
      launched.mail.webUrl
        ? `Mails the portal sends (MailDev): ${launched.mail.webUrl}`
        : `Mails the portal sends go to ${launched.mail.smtpUrl.replace(/\/\/[^@/]*@/, '//')}`,
    );
    say('Preset accounts are listed in the README (and under "Выбрать тестовый аккаунт" on /auth). Ctrl-C stops everything.');
    say(
      `Secrets (JWT_SECRET, INTERNAL_TOKEN, ADMIN_REGISTRATION_PASSWORD for registering as ADMIN): ${path.relative(process.cwd(), SECRETS_FILE)}`,
    );
  } catch (err) {
    if (!isStopping()) await stopLaunched(launched);
    throw err;
  }
}

interface Stage {
  name: string;
  run: () => Promise<void> | void;
}

/** `npm test`: every stage, timed, then one summary line. */
async function test(): Promise<void> {
  const reports = path.join(ROOT, '.data/reports');
  mkdirSync(reports, { recursive: true });
  const stages: Stage[] = [
    {
      name: 'typecheck',
      // The services' build (which checks them) and the three other programs, two at a time, longest
      // first: none of the three reads the build's output (they name the sources), so none waits for it.
      // The tests' program checks the bench too (tsconfig.tests.json).
      run: () =>
        runTwoAtATime([
          [bin('tsc'), ['-b', 'tsconfig.node.json']],
          ...['tsconfig.tests.json', 'tsconfig.web.json', 'tsconfig.tools.json'].map((project): [string, string[]] => [
            bin('tsc'),
            ['-p', project],
          ]),
        ]),
    },
    {
      name: 'lint',
      run: () =>
        runTwoAtATime([
          [bin('eslint'), ['.', '--max-warnings=0']],
          [bin('prettier'), ['--check', '--log-level=warn', '.']],
        ]),
    },
    { name: 'chart (helm lint, template, strict API decode)', run: () => checkChart() },
    { name: 'build front ends', run: () => buildFrontends() },
    {
      name: 'jest (units and services)',
      run: () => run(bin('jest'), ['--ci', '--json', `--outputFile=${path.join(reports, 'jest.json')}`]),
    },
    {
      name: 'playwright (browser journeys)',
      run: () =>
        run(bin('playwright'), ['test', '-c', 'e2e/playwright.config.ts'], {
          env: { ...process.env, NODE_OPTIONS: '--conditions=source' },
        }),
    },
  ];
  const times: Array<[string, number, boolean]> = [];
  let failed: unknown = null;
  for (const stage of stages) {
    say(`── ${stage.name} ──`);
    const started = Date.now();
    try {
      await stage.run();
      times.push([stage.name, Date.now() - started, true]);
    } catch (err) {
      times.push([stage.name, Date.now() - started, false]);
      failed = err;
      break;
    }
  }
  say('');
  say('Stage times:');
  for (const [name, ms, ok] of times) say(`  ${ok ? '✔' : '✘'} ${name.padEnd(32)} ${seconds(ms)}`);
  say(`  total ${seconds(times.reduce((sum, [, ms]) => sum + ms, 0))}`);

  const jestReport = path.join(reports, 'jest.json');
  const pwReport = path.join(reports, 'playwright.json');
  const readReport = <T>(file: string): T | null => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : null);
  const printSlowest = (title: string, times: FileTime[]) => {
    if (!times.length) return;
    say(`The 10 slowest ${title}:`);
    for (const { file, ms } of slowest(times, 10)) say(`  ${seconds(ms).padStart(8)}  ${file}`);
  };
  const jestRun = times.some(([name]) => name.startsWith('jest'));
  const pwRun = times.some(([name]) => name.startsWith('playwright'));
  if (jestRun) printSlowest('jest files', jestFileTimes(readReport(jestReport) ?? {}, ROOT));
  if (pwRun) printSlowest('journey files', playwrightFileTimes(readReport(pwReport) ?? {}));

  let passed = 0;
  let failedCount = 0;
  if (existsSync(jestReport)) {
    const j = JSON.parse(readFileSync(jestReport, 'utf8')) as { numPassedTests: number; numFailedTests: number };
    passed += j.numPassedTests;
    failedCount += j.numFailedTests;
  }
  if (existsSync(pwReport)) {
    const p = JSON.parse(readFileSync(pwReport, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number } };
    passed += p.stats.expected + p.stats.flaky;
    if (p.stats.flaky) say(`${p.stats.flaky} browser journey(s) passed only on their retry (flaky): see the report above`);
    failedCount += p.stats.unexpected;
  }
  if (failed) {
    console.error(failed instanceof Error ? failed.message : failed);
    console.log(`${passed} passed, ${Math.max(failedCount, 1)} failed`);
    process.exit(1);
  }
  console.log(`${passed} passed, ${failedCount} failed`);
}

/** Installs the store when nothing else will provide one, and the S3 server of the tests (CI calls this before the tests). */
async function setup(): Promise<void> {
  // The S3 backend's tests run against a real S3 server (SeaweedFS), built once per machine.
  say(`object storage: SeaweedFS at ${installSeaweedFS()}`);
  if (process.env.MONGO_URL || which('mongod')) return say('store: provided (MONGO_URL or mongod), nothing to install');
  say(`store: FerretDB at ${installFerretDB()}`);
  const postgresqlUrl = process.env.FERRETDB_POSTGRESQL_URL || DEFAULT_POSTGRESQL_URL;
  const refused = await preparePostgresDatabase(postgresqlUrl);
  if (!refused) return say(`store: FerretDB will run on the PostgreSQL answering at ${postgresqlUrl}`);
  if (process.getuid?.() !== 0) return say(`store: FerretDB will run on SQLite (${refused}; a PostgreSQL of our own needs root)`);
  const { postgres } = installPostgres();
  say(`store: FerretDB will run on a PostgreSQL cluster of our own (${refused}), with ${postgres}`);
}

/** What the chart checks need, installed before the timed test command: helm, and the checker's and its tests' builds. */
async function chartTools(): Promise<void> {
  say(`chart: helm at ${ensureHelm()}`);
  const { checker, tests } = prepareChartChecker();
  say(`chart: checker at ${checker}, its tests at ${tests}`);
}

/** The chart checks alone (also a stage of `npm test`). */
async function chart(): Promise<void> {
  checkChart();
}

/** The services' database prefix (DB_PREFIX, default as in the service kit's configuration). */
function dbPrefix(): string {
  const prefix = process.env.DB_PREFIX ?? 'portal_';
  if (!/^[a-z0-9_]*$/.test(prefix)) throw new Error(`DB_PREFIX must be lowercase letters, digits and _, got "${prefix}"`);
  return prefix;
}

/** A path the person typed: relative to where they ran npm, not to the repository root npm runs us in. */
const fromCaller = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

const summary = (counts: Record<string, number>) => {
  const documents = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return `documents: ${documents}, collections: ${Object.keys(counts).length}`;
};

/** `npm run backup [-- <file>]`: every database of the portal into one archive (docs/backups.md). */
async function backupCommand(): Promise<void> {
  const [target, ...extra] = process.argv.slice(3);
  if (extra.length || target?.startsWith('-')) throw new Error('Использование: npm run backup [-- <файл архива>]');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = target ? fromCaller(target) : path.join(DATA_DIR, 'backups', `portal-${stamp}.ndjson.gz`);
  const store = await ensureStore();
  try {
    const written = await backup({ mongoUrl: store.url, dbPrefix: dbPrefix(), file });
    say(`backup written: ${file} (${summary(written.counts)}, ${(written.bytes / 1024).toFixed(0)} KiB)`);
  } finally {
    await store.process?.stop();
  }
}

/** `npm run restore -- <file> [--force]`: an archive back into an empty store (or replacing it, with --force). */
async function restoreCommand(): Promise<void> {
  const args = process.argv.slice(3);
  const files = args.filter((arg) => !arg.startsWith('-'));
  const flags = args.filter((arg) => arg.startsWith('-'));
  if (files.length !== 1 || flags.some((flag) => flag !== '--force'))
    throw new Error('Использование: npm run restore -- <файл архива> [--force]');
  // `npm run restore x --force` (without `--`) gives the flag to npm, which passes it on as this.
  const force = flags.includes('--force') || process.env.npm_config_force === 'true';
  const store = await ensureStore();
  try {
    const restored = await restore({ mongoUrl: store.url, dbPrefix: dbPrefix(), file: fromCaller(files[0]), force });
    if (restored.replaced.length) say(`replaced the data of ${restored.replaced.join(', ')}`);
    say(`restored ${summary(restored.counts)} from ${files[0]}`);
  } finally {
    await store.process?.stop();
  }
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void>> = {
  start,
  build,
  test,
  setup,
  'chart-tools': chartTools,
  chart,
  backup: backupCommand,
  restore: restoreCommand,
};
if (!commands[command]) {
  console.error(`usage: cli.ts ${Object.keys(commands).join('|')}`);
  process.exit(2);
}
commands[command]().catch((err) => {
  // A start that failed because Ctrl-C stopped its processes: the stop under way exits when done.
  if (isStopping()) return;
  console.error(`[portal] ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
