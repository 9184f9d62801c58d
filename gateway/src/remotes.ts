import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { REMOTES } from '@portal/routes';

/** The front ends the gateway serves: the shell and the remotes of the route table. */
export const FRONTEND_FOLDERS: readonly string[] = Object.values(REMOTES);

const manifestSchema = z.record(z.string().regex(/^mf_[a-z]+$/), z.string().min(1));
type Manifest = z.infer<typeof manifestSchema>;

/** Each remote at /mf/<folder>/mf-manifest.json, served by this gateway (or its static container). */
const tableDefaults = (): Manifest =>
  Object.fromEntries(Object.entries(REMOTES).map(([scope, folder]) => [scope, `/mf/${folder}/mf-manifest.json`]));

/**
 * GET /remotes.json, the runtime manifest of remote URLs: the table's defaults (or REMOTES_JSON),
 * overlaid by the remotes named in REMOTES_FILE (default <STATIC_ROOT>/remotes.json). The file is looked at on every request (one stat;
 * read again only when it changed), so pointing a remote at a new build needs no gateway restart. A
 * file that is missing means the defaults; one that is not a manifest is logged and the last good
 * one kept.
 */
export function remotesManifest(config: { REMOTES_JSON?: string; REMOTES_FILE?: string; STATIC_ROOT: string }, logger: Logger) {
  const file = config.REMOTES_FILE ?? path.join(config.STATIC_ROOT, 'remotes.json');
  const base = config.REMOTES_JSON ? manifestSchema.parse(JSON.parse(config.REMOTES_JSON)) : tableDefaults();
  let seen: { key: string; overlay: Manifest } = { key: 'missing', overlay: {} };

  const current = async (): Promise<Manifest> => {
    const info = await stat(file).catch(() => null);
    const key = info ? `${info.mtimeMs}:${info.size}` : 'missing';
    if (key !== seen.key) {
      try {
        seen = { key, overlay: info ? manifestSchema.parse(JSON.parse(await readFile(file, 'utf8'))) : {} };
      } catch (err) {
        logger.warn({ file, err: (err as Error).message }, 'remotes file is not a manifest; keeping the last good one');
        seen = { ...seen, key };
      }
    }
    return { ...base, ...seen.overlay };
  };

  return async (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(await current());
  };
}
