import path from 'node:path';
import { Router, type Response } from 'express';
import { openApiDocument } from './document';

export { openApiDocument } from './document';

/** The files of Swagger UI the page loads, served from the gateway itself (no CDN: the CSP allows only 'self'). */
const UI_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);

// Scripts come from files, never inline, so the gateway's script-src 'self' holds for this page too.
const PAGE = `<!doctype html>
<html lang="ru">
<head>
  <meta charset="utf-8">
  <title>API учебного портала</title>
  <link rel="stylesheet" href="/api/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/swagger-ui-bundle.js"></script>
  <script src="/api/docs/start.js"></script>
</body>
</html>
`;

const START = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: false,
});
`;

const noCache = (res: Response) => res.setHeader('Cache-Control', 'no-cache');

/** GET /api/openapi.json (the document) and GET /api/docs (a page that reads it). */
export function openApiRoutes(): Router {
  const router = Router();
  const uiRoot = path.dirname(require.resolve('swagger-ui-dist/package.json'));

  router.get('/api/openapi.json', (_req, res) => {
    noCache(res);
    res.json(openApiDocument());
  });
  router.get('/api/docs', (_req, res) => {
    noCache(res);
    res.type('html').send(PAGE);
  });
  router.get('/api/docs/start.js', (_req, res) => {
    noCache(res);
    res.type('js').send(START);
  });
  router.get('/api/docs/:file', (req, res, next) => {
    if (!UI_FILES.has(req.params.file)) return next();
    noCache(res);
    res.sendFile(path.join(uiRoot, req.params.file));
  });
  return router;
}
