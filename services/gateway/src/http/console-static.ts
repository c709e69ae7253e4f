import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import express, { type RequestHandler, type Response } from 'express';

/**
 * The console's policy: its own files only, no inline script or style, no framing, and
 * connections to this origin alone (the public API it calls).
 */
export const consoleContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Where `npm run build` puts the console (services/console/dist), or null without a build. */
export function builtConsoleDir(): string | null {
  try {
    const dir = join(dirname(require.resolve('@formcast/console/package.json')), 'dist');
    return existsSync(join(dir, 'index.html')) ? dir : null;
  } catch {
    return null;
  }
}

function securityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', consoleContentSecurityPolicy);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/**
 * `/console`: the built console as static files (mount at '/console'). Without a build (the
 * tests run from sources) every path answers 503 saying how to build it. The page holds no
 * secret: it signs in with an API token and calls the public API like any client.
 */
export function consoleStatic(dir: string | null = builtConsoleDir()): RequestHandler {
  if (dir === null) {
    return (req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      securityHeaders(res);
      res.status(503).type('text/plain').send('The console is not built. Run `npm run build` (it builds services/console into its dist/), then start again.\n');
    };
  }
  return express.static(dir, {
    index: 'index.html',
    fallthrough: true,
    setHeaders: (res, path) => {
      securityHeaders(res);
      // Vite names assets by their content: they never change; the page is checked each time.
      res.setHeader('Cache-Control', path.startsWith(join(dir, 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
