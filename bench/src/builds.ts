import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A build of the front ends to measure: a folder holding `shell/dist` and `mf-*\/dist` (a checkout, or a copy of the dists). */
export interface Build {
  name: string;
  root: string;
}

/** The `name=folder` arguments, each checked to hold a built shell. */
export function buildsIn(argv: readonly string[]): Build[] {
  const builds = argv
    .filter((a) => /^[\w-]+=/.test(a))
    .map((a) => ({ name: a.split('=')[0], root: path.resolve(a.slice(a.indexOf('=') + 1)) }));
  for (const { name, root } of builds)
    if (!existsSync(path.join(root, 'shell/dist/index.html'))) throw new Error(`${name}: no shell/dist/index.html in ${root}`);
  return builds;
}

/**
 * Serves one build at a time to the bench's portal, which must start after this: the gateway reads
 * the front ends through a link (STATIC_ROOT) on every request, so switching the link switches the
 * build. `remove` deletes the link's folder.
 */
export function servedBuilds(first: Build) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'bench-builds-'));
  const link = path.join(scratch, 'static');
  const serve = (build: Build) => {
    rmSync(link, { force: true });
    symlinkSync(build.root, link);
  };
  serve(first);
  process.env.STATIC_ROOT = link;
  return { serve, remove: () => rmSync(scratch, { recursive: true, force: true }) };
}
