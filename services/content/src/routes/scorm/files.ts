import type { Context } from 'koa';
import { CONTENT_MSG, SCORM_FILES_PATH, SCORM_MSG } from '@portal/contracts';
import { HttpError, implement, notFound, type DeclaredHandler, type ServiceContext } from '@portal/service-kit';
import { BRIDGE_PATH, bridgeScript, injectBridge } from '../../scorm/bridge';
import type { ScormFiles } from '../../scorm/files';
import { verifyLaunchToken } from '../../scorm/token';
import { parseRange } from '../uploads';
import { scormFile } from './declarations';

/**
 * The package's own policy: its scripts run, but in a sandbox without same-origin rights, so they
 * cannot read the portal's storage or cookies nor call /api as the learner; only the portal frames it.
 */
export const SCORM_CSP =
  "sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads; default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:; frame-ancestors 'self'";

/** The path inside the package: each segment decoded; `..`, empty and undecodable segments are not files. */
function packagePath(rest: string): string | null {
  const segments = rest.split('/');
  const decoded: string[] = [];
  for (const segment of segments) {
    let part: string;
    try {
      part = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (part === '..' || part.includes('/') || part.includes('\\') || part.includes('\0')) return null;
    if (part !== '' && part !== '.') decoded.push(part);
  }
  return decoded.length ? decoded.join('/') : null;
}

function setCommonHeaders(ctx: Context) {
  ctx.set('Content-Security-Policy', SCORM_CSP);
  ctx.set('Cache-Control', 'private, max-age=3600');
  // The sandboxed frame's origin is opaque (`null`): its CORS requests (fonts, fetch of its own JSON) need this.
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
}

/**
 * GET /scorm/<token>/<path>: a package's files, to whoever holds a launch token for that package
 * (POST /api/scorm/launch gives it). Every HTML page gets the runtime bridge first in its <head>;
 * `__portal__/bridge.js` is that bridge.
 */
export function scormFileRoute(service: ServiceContext, files: ScormFiles): DeclaredHandler {
  return implement(scormFile, async (ctx, { params: { token } }) => {
    const claims = verifyLaunchToken(service.config.JWT_SECRET, token);
    const prefix = `${SCORM_FILES_PATH}/${encodeURIComponent(token)}/`;
    const raw = ctx.path.startsWith(prefix) ? ctx.path.slice(prefix.length) : ctx.path.split('/').slice(3).join('/');
    const path = packagePath(raw);
    if (!path) throw notFound(SCORM_MSG.fileNotFound);
    setCommonHeaders(ctx);

    if (path === BRIDGE_PATH) {
      ctx.type = 'application/javascript; charset=utf-8';
      ctx.body = bridgeScript();
      return;
    }

    const file = await files.read(claims.packageId, path);
    if (!file) throw notFound(SCORM_MSG.fileNotFound);
    ctx.type = file.contentType;

    if (/^text\/html|application\/xhtml\+xml/.test(file.contentType)) {
      ctx.body = injectBridge(await file.text(), token);
      return;
    }

    ctx.set('Accept-Ranges', 'bytes');
    const range = parseRange(ctx.get('range') || undefined, file.size);
    if (range === 'unsatisfiable') {
      throw new HttpError(416, CONTENT_MSG.rangeNotSatisfiable, 'range_not_satisfiable', undefined, {
        'Content-Range': `bytes */${file.size}`,
      });
    }
    if (range) {
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
      ctx.length = range.end - range.start + 1;
      ctx.body = file.stream(range);
      return;
    }
    ctx.length = file.size;
    ctx.body = file.stream();
  });
}
