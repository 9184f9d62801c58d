import { stat } from 'node:fs/promises';
import path from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** The encodings the build writes beside a file, best first (webpack-config's `precompressed`). */
const TWINS = [
  { encoding: 'br', ext: '.br' },
  { encoding: 'gzip', ext: '.gz' },
] as const;
const COMPRESSIBLE = /\.(js|css|html|json|svg)$/;

const mtimeOf = (file: string) =>
  stat(file).then(
    (s) => (s.isFile() ? s.mtimeMs : null),
    () => null,
  );

/**
 * Files from `root`, each sent in the compressed form the build made beside it (`file.js.br`, then
 * `file.js.gz`) when the client accepts it, as it is: no compressing per request. A twin older than
 * its file (left by another build) is never sent for it. Any other file is served plainly, for the
 * compression middleware before this one to compress on the fly.
 */
export function precompressedStatic(root: string, options: Parameters<typeof express.static>[1]): RequestHandler {
  const serve = express.static(root, options);
  const base = path.resolve(root);
  return async (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !COMPRESSIBLE.test(req.path)) return serve(req, res, next);
    let relative: string;
    try {
      relative = decodeURIComponent(req.path);
    } catch {
      return serve(req, res, next); // serve-static answers the malformed path itself
    }
    const file = path.join(base, relative);
    if (!file.startsWith(base + path.sep)) return serve(req, res, next);
    const twin = TWINS.find(({ encoding }) => req.acceptsEncodings(encoding) === encoding);
    const [own, compressed] = twin ? await Promise.all([mtimeOf(file), mtimeOf(file + twin.ext)]) : [null, null];
    res.vary('Accept-Encoding');
    if (!twin || own === null || compressed === null || compressed < own) return serve(req, res, next);

    const url = req.url;
    req.url = url.replace(/^[^?]*/, (pathname) => pathname + twin.ext);
    res.type(path.extname(relative));
    res.setHeader('Content-Encoding', twin.encoding);
    serve(req, res, (err?: unknown) => {
      // The twin went away between the look and the send: the file itself, as if it had none.
      req.url = url;
      res.removeHeader('Content-Encoding');
      res.removeHeader('Content-Type');
      if (err) return next(err);
      serve(req, res, next);
    });
  };
}
