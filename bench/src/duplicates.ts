/**
 * The `duplicates` figure (its budget in bench/README.md): pairs of places in the production code that share six or more
 * lines, by the `duplicates` CLI (a tool of the machine, on PATH). Production code is every tracked
 * TypeScript and JavaScript file but tests, test helpers, the journeys, the benchmarks, the
 * developer's launcher and declaration files; the CLI reads a folder, so those files are copied to a
 * scratch one first.
 *
 *   tsx --conditions=source --tsconfig bench/tsconfig.json bench/src/duplicates.ts
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '@portal/devstack/util';

export const DUPLICATES_GOAL = 40;

const SOURCE = /\.(ts|tsx|js|mjs)$/;
const NOT_PRODUCTION =
  /(^|\/)(e2e|bench|docs|system-tests|devstack|test)\/|\.(test|spec)\.|(^|\/)testing\.ts$|\.d\.ts$|\.config\.|(^|\/)eslint/;

/** The production files of the checkout, as git lists them (tracked, and new ones it does not ignore). */
export function productionFiles(root = ROOT): string[] {
  return execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\n')
    .filter((f) => SOURCE.test(f) && !NOT_PRODUCTION.test(f));
}

export interface DuplicatesCount {
  pairs: number;
  files: number;
  /** The CLI's rows, most shared first. */
  rows: string[];
}

export function countDuplicates(root = ROOT): DuplicatesCount {
  const scratch = mkdtempSync(path.join(tmpdir(), 'duplicates-'));
  try {
    for (const file of productionFiles(root)) {
      mkdirSync(path.join(scratch, path.dirname(file)), { recursive: true });
      copyFileSync(path.join(root, file), path.join(scratch, file));
    }
    const out = execFileSync('duplicates', ['--most', '200', '--seconds', '300'], { cwd: scratch, encoding: 'utf8' });
    const head = /^(\d+) pairs? of places \((\d+) files read\)/m.exec(out);
    const none = /^no duplicates \((\d+) files read\)/m.exec(out);
    if (!head && !none) throw new Error(`duplicates: an answer not understood: ${out.slice(0, 200)}`);
    return {
      pairs: head ? Number(head[1]) : 0,
      files: Number(head ? head[2] : none![1]),
      rows: out.split('\n').filter((line) => /^D\d+ /.test(line)),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const { pairs, files, rows } = countDuplicates();
  console.log(`duplicates in production code: ${pairs} pairs in ${files} files (goal ≤ ${DUPLICATES_GOAL})`);
  for (const row of rows.slice(0, 20)) console.log(`  ${row}`);
}
