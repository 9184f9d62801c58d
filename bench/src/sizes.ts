import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(__dirname, '../..');
const KiB = 1024;
const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

interface Manifest {
  shared?: Array<{ name: string; assets: { js: { sync: string[]; async: string[] } } }>;
  exposes?: Array<{ name: string; assets: { js: { sync: string[]; async: string[] } } }>;
}

/** Gzip sizes of what the browser loads: each remoteEntry, and each remote's exposed module with its sync chunks. */
export function measureSizes() {
  const rows: Array<{ what: string; bytes: number; budget?: number }> = [];
  const shellDist = path.join(ROOT, 'shell/dist');
  const shellJs = readdirSync(shellDist).filter((f) => f.endsWith('.js'));
  const shellTotal = shellJs.reduce((sum, f) => sum + gz(path.join(shellDist, f)), 0);
  rows.push({ what: 'shell: every JS file it ships (entry, runtime, chrome, shared React)', bytes: shellTotal });
  for (const dir of readdirSync(ROOT)
    .filter((d) => d.startsWith('mf-'))
    .sort()) {
    const dist = path.join(ROOT, dir, 'dist');
    if (!existsSync(dist)) continue;
    rows.push({ what: `${dir}/remoteEntry.js`, bytes: gz(path.join(dist, 'remoteEntry.js')), budget: 8 * KiB });
    const manifest = JSON.parse(readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8')) as Manifest;
    const exposed = new Set(manifest.exposes?.flatMap((e) => e.assets.js.sync) ?? []);
    rows.push({
      what: `${dir}: exposed lifecycles + sync chunks`,
      bytes: [...exposed].reduce((s, f) => s + gz(path.join(dist, f)), 0),
    });
  }
  return rows;
}

if (require.main === module) {
  for (const row of measureSizes()) {
    const verdict = row.budget
      ? row.bytes <= row.budget
        ? 'met'
        : `missed by ${((row.bytes - row.budget) / KiB).toFixed(1)} KiB`
      : '';
    console.log(
      `${row.what.padEnd(70)} ${(row.bytes / KiB).toFixed(1).padStart(7)} KiB gzip ${row.budget ? `(budget ${row.budget / KiB} KiB: ${verdict})` : ''}`,
    );
  }
}
