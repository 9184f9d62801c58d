import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

/** A page's first view rendered at build time: its root's markup and the <style> elements of its rules. */
export interface PrerenderedPage {
  html: string;
  css: string;
}

/**
 * Runs a front end's pre-render script (a module printing `{html, css}` as JSON) in a Node of its
 * own, with the workspace packages read from source and the web's JSX settings, as webpack reads them.
 */
export function prerender(script: string): PrerenderedPage {
  const out = execFileSync(process.execPath, ['--conditions=source', '--import', 'tsx', path.resolve(ROOT, script)], {
    cwd: ROOT,
    env: { ...process.env, TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.web.json') },
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(out) as PrerenderedPage;
}
