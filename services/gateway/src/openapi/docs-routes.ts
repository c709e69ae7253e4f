import { readFileSync } from 'node:fs';
import { Router } from 'express';
import { openApiDocumentFile } from './document-file';

/**
 * Redoc's browser bundle, served from node_modules: no CDN, nothing fetched from elsewhere.
 * Its side menu always draws an attribution logo from Redoc's CDN (an <img> it hides when
 * the load fails): the page's policy refused it, and the browser logged an error on every
 * visit. The bundle is served with that address replaced by an empty image of its own
 * (read once, at the first request: a gateway nobody reads the docs of never holds it).
 */
const redocBundlePath = require.resolve('redoc/bundles/redoc.standalone.js');
const redocCdnLogo = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const emptyImage = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";
let redocBundle: Buffer | undefined;
const redocBundleWithoutCdn = () =>
  (redocBundle ??= Buffer.from(readFileSync(redocBundlePath, 'utf8').replaceAll(redocCdnLogo, emptyImage)));

/**
 * What the docs page may load: its own scripts and the document, nothing from another
 * origin. Redoc's styled-components writes <style> elements (style-src 'unsafe-inline'),
 * its search index runs in a worker made from a blob: URL, and its icons are data: URIs.
 */
const docsPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const page = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Formcast API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="redoc"></div>
<script src="/docs/redoc.standalone.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
`;

/** In a file of its own, not inline, so the policy needs no 'unsafe-inline' for scripts. */
const start = `Redoc.init('/openapi.json', { hideDownloadButton: false, expandResponses: '200,201,202' }, document.getElementById('redoc'));\n`;

/**
 * `GET /openapi.json` (the OpenAPI 3.1 document the build wrote from the route table:
 * document-file.ts) and `GET /docs` (Redoc over it). No authentication: they describe the
 * API, they reach no data.
 */
export function openApiRoutes(): Router {
  const document = Buffer.from(JSON.stringify(JSON.parse(readFileSync(openApiDocumentFile, 'utf8'))));
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(document);
  });
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', docsPolicy);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type('text/html').send(page);
  });
  router.get('/docs/start.js', (_req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type('text/javascript').send(start);
  });
  router.get('/docs/redoc.standalone.js', (_req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/javascript').send(redocBundleWithoutCdn());
  });
  return router;
}
