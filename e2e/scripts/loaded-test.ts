/**
 * Runs the whole test command (`npm test`) while another process keeps one core busy, to prove the
 * suite passes on a loaded machine (issue: CI must pass "even on a busy machine").
 *
 *   npx tsx e2e/scripts/loaded-test.ts            # one core busy for the whole run
 *   HOG_CORES=2 npx tsx e2e/scripts/loaded-test.ts
 *
 * The hog is a plain Node busy loop, bounded in time (HOG_MAX_MINUTES, default 30) and stopped as
 * soon as the test command ends, so it can never outlive the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

const cores = Math.max(1, Math.min(Number(process.env.HOG_CORES ?? 1), availableParallelism()));
const maxMs = Number(process.env.HOG_MAX_MINUTES ?? 30) * 60_000;
const busyLoop = `const end = Date.now() + ${maxMs}; let x = 0; while (Date.now() < end) x = (x + Math.sqrt(x + 1)) % 1e9;`;

const hogs: ChildProcess[] = [];
for (let i = 0; i < cores; i++) hogs.push(spawn(process.execPath, ['-e', busyLoop], { stdio: 'ignore' }));
const stopHogs = () => hogs.forEach((h) => h.kill('SIGKILL'));
process.on('exit', stopHogs);
console.log(`[loaded] ${cores} busy core(s) for at most ${maxMs / 60_000} min while \`npm test\` runs`);

const started = Date.now();
const test = spawn('npm', ['test'], { stdio: 'inherit' });
const forward = (signal: NodeJS.Signals) => () => test.kill(signal);
process.on('SIGINT', forward('SIGINT'));
process.on('SIGTERM', forward('SIGTERM'));
test.on('exit', (code) => {
  stopHogs();
  console.log(`[loaded] npm test ended with ${code} after ${((Date.now() - started) / 1000).toFixed(0)} s under load`);
  process.exit(code ?? 1);
});
