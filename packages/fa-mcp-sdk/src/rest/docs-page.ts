/**
 * The interactive API reference at `webServer.openapi.docsPath`: Swagger UI
 * served from the `swagger-ui-dist` package, an optional peer (no CDN, nothing fetched from
 * elsewhere; the online validator badge is off), with a page and an init
 * script of our own so the Content-Security-Policy needs no inline script.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Router } from 'express';
import { requireOptional } from '../core/optional-package.js';

const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'] as const;

/** Scripts and styles from this origin only; Swagger UI sets inline style attributes. */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function swaggerUiDir(): string {
  const require = createRequire(typeof __filename === 'string' ? __filename : import.meta.url);
  // an optional peer: a server with the page on and the package missing stops at start, saying what to install
  return dirname(requireOptional('swaggerUi', () => require.resolve('swagger-ui-dist/package.json')));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function createDocsRouter(opts: { docsPath: string; specUrl: string; title: string }): Router {
  const dir = swaggerUiDir();
  const base = opts.docsPath.replace(/\/+$/, '');
  const router = express.Router();
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)} — API reference</title>
<link rel="icon" type="image/png" href="${base}/favicon-32x32.png">
<link rel="stylesheet" href="${base}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}/swagger-ui-bundle.js"></script>
<script src="${base}/init.js"></script>
</body>
</html>
`;
  const init = `window.ui = SwaggerUIBundle(${JSON.stringify({ url: opts.specUrl, dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null, tryItOutEnabled: true })});\n`;

  router.use(base || '/', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    next();
  });
  router.get([base || '/', `${base}/`, `${base}/index.html`], (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(page);
  });
  router.get(`${base}/init.js`, (_req, res) => res.type('application/javascript').send(init));
  for (const asset of ASSETS) {
    router.get(`${base}/${asset}`, (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=86400');
      res.sendFile(asset, { root: dir });
    });
  }
  return router;
}
