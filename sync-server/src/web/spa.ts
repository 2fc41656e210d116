import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Paths the server owns; everything else that accepts HTML gets the app shell (SPA fallback).
 * /auth/login and /auth/login-with-google are pages on GET and server endpoints on POST.
 */
const serverPrefixes = ['/api/', '/healthz', '/dev/', '/auth/logout', '/auth/external/'];

/** Serves the built PWA: hashed assets long-cached, the shell and service worker never. */
export async function registerSpa(app: FastifyInstance, distDir: string) {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn(`No PWA build at ${distDir}; run "npm run build". Only the API is served.`);
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    setHeaders(res, filePath) {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      else res.setHeader('cache-control', 'no-cache');
    },
  });
  app.get('/*', async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    if (serverPrefixes.some((prefix) => urlPath.startsWith(prefix))) return reply.callNotFound();
    const file = urlPath.slice(1);
    if (file && !file.includes('..') && existsSync(path.join(distDir, file)) && path.extname(file)) {
      return reply.sendFile(file);
    }
    if (path.extname(urlPath) && !urlPath.endsWith('.html')) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
  });
}
