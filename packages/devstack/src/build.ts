import { readdirSync } from 'node:fs';
import path from 'node:path';
import { buildFrontend } from '@portal/webpack-config/build';
import { ROOT, run, say } from './util';

export const FRONTENDS = [
  'shell',
  ...readdirSync(ROOT)
    .filter((d) => d.startsWith('mf-'))
    .sort(),
];

export function buildServices(): void {
  run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.node.json']);
}

/** Builds the front ends two at a time (the machines have two cores). */
export async function buildFrontends(names = FRONTENDS): Promise<void> {
  const queue = [...names];
  const worker = async () => {
    for (let name = queue.shift(); name; name = queue.shift()) {
      const started = Date.now();
      await buildFrontend(path.join(ROOT, name));
      say(`built ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  };
  await Promise.all([worker(), worker()]);
}
