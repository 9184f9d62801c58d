import type { Context } from 'koa';
import { CONTENT_MSG, SCORM_FILES_PATH, SCORM_MSG, SCORM_PLAYER_PAGE } from '@portal/contracts';
import { HttpError, implement, notFound, type DeclaredHandler, type ServiceContext } from '@portal/service-kit';
import type { ContentConfig } from '../../config';
import { BRIDGE_PATH, bridgeScript, injectBridge, PLAYER_PAGE } from '../../scorm/bridge';
import type { ScormFiles } from '../../scorm/files';
import { verifyLaunchToken } from '../../scorm/token';
import { parseRange } from '../uploads';
import { scormFile } from './declarations';

const SANDBOX = 'allow-scripts allow-forms allow-popups allow-modals allow-downloads';

/**
 * The package's own policy. On the portal's origin its scripts run in a sandbox without same-origin
 * rights, so they cannot read the portal's storage or cookies nor call /api as the learner; only the
 * portal frames it. On a package origin of its own the frames of one package share that origin (a
 * frameset, the ADL discovery through window.parent), framed only by the portal page that launched
 * them and by each other.
 */
export function scormCsp(onPackageOrigin: boolean, portalOrigin?: string): string {
  const sandbox = onPackageOrigin ? `sandbox ${SANDBOX} allow-same-origin` : `sandbox ${SANDBOX}`;
  const ancestors = onPackageOrigin && portalOrigin ? `'self' ${portalOrigin}` : "'self'";
  return `${sandbox}; default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:; frame-ancestors ${ancestors}`;
}

/** Whether the request came to SCORM_ORIGIN's host (the gateway forwards the host it was asked for). */
function isPackageOrigin(ctx: Context, scormOrigin: string): boolean {
  if (!scormOrigin) return false;
  const host = (ctx.get('x-forwarded-host') || ctx.host).toLowerCase();
  return host === new URL(scormOrigin).host;
}

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

function setCommonHeaders(ctx: Context, csp: string) {
  ctx.set('Content-Security-Policy', csp);
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
export function scormFileRoute(service: ServiceContext<ContentConfig>, files: ScormFiles): DeclaredHandler {
  return implement(scormFile, async (ctx, { params: { token } }) => {
    const claims = verifyLaunchToken(service.config.JWT_SECRET, token);
    const prefix = `${SCORM_FILES_PATH}/${encodeURIComponent(token)}/`;
    const raw = ctx.path.startsWith(prefix) ? ctx.path.slice(prefix.length) : ctx.path.split('/').slice(3).join('/');
    const path = packagePath(raw);
    if (!path) throw notFound(SCORM_MSG.fileNotFound);
    const onPackageOrigin = isPackageOrigin(ctx, service.config.SCORM_ORIGIN);
    setCommonHeaders(ctx, scormCsp(onPackageOrigin, claims.portalOrigin));

    if (path === BRIDGE_PATH) {
      ctx.type = 'application/javascript; charset=utf-8';
      ctx.body = bridgeScript(onPackageOrigin ? claims.portalOrigin : undefined);
      return;
    }
    // The player page only where the package's frames share an origin: elsewhere it could not hand them the API.
    if (path === SCORM_PLAYER_PAGE && onPackageOrigin) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PLAYER_PAGE;
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
