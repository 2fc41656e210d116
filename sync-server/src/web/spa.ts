import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ShellFile } from './shell-file.ts';

/** Rewrites the app shell for one request (an organisation's branded pages), or leaves it. */
export type ShellTransform = (html: string, request: FastifyRequest) => Promise<string>;

/**
 * Paths the server owns; everything else that accepts HTML gets the app shell (SPA fallback).
 * /auth/login and /auth/login-with-google are pages on GET and server endpoints on POST.
 */
const serverPrefixes = ['/api/', '/healthz', '/dev/', '/auth/logout', '/auth/external/'];

/** Serves the built PWA: hashed assets long-cached, the shell and service worker never. */
export async function registerSpa(
  app: FastifyInstance,
  distDir: string,
  transformShell?: ShellTransform,
) {
  const shell = new ShellFile(path.join(distDir, 'index.html'));
  if (!shell.exists()) {
    app.log.warn(`No PWA build at ${distDir}; run "npm run build". Only the API is served.`);
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    // The build writes .br/.gz beside each script and stylesheet (pwa/vite.config.ts).
    preCompressed: true,
    // Cache-Control comes from setHeaders alone (send's default 'public, max-age=0' won over it).
    cacheControl: false,
    setHeaders(res, filePath) {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      else res.setHeader('cache-control', 'no-cache');
      // Which copy (br, gz, plain) depends on the request's Accept-Encoding: tell caches.
      if (/\.(js|css)(\.br|\.gz)?$/.test(filePath)) res.setHeader('vary', 'accept-encoding');
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
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8');
    if (!transformShell) return reply.sendFile('index.html');
    return reply.send(await transformShell(shell.html(), request));
  });
}
