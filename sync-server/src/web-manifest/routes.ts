import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { manifestTemplatesDir, renderManifest } from './render-manifest.ts';

const iconsDir = path.join(manifestTemplatesDir, 'icons');

/** The platform's default web app manifest and icons (branded ones come with issue 5). */
export async function webManifestRoutes(app: FastifyInstance) {
  app.get('/manifest.webmanifest', async (_request, reply) => {
    reply.header('cache-control', 'no-cache').type('application/manifest+json; charset=utf-8');
    return JSON.stringify(renderManifest());
  });

  app.get<{ Params: { file: string } }>('/icons/:file', async (request, reply) => {
    const { file } = request.params;
    if (!/^[\w-]+\.(png|svg)$/.test(file) || !existsSync(path.join(iconsDir, file))) return reply.callNotFound();
    reply.header('cache-control', 'public, max-age=86400').type(file.endsWith('.svg') ? 'image/svg+xml' : 'image/png');
    return reply.send(createReadStream(path.join(iconsDir, file)));
  });
}
