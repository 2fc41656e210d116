import type { FastifyInstance } from 'fastify';

export type RouteEntry = { method: string; url: string };

/**
 * Every route of a ready app, read from `printRoutes({ commonPrefix: false })`: a tree in which
 * each line adds its segment to its parent's path (`/auth/login` then `-with-google`). HEAD is
 * left out: Fastify adds it to every GET.
 */
export function listRoutes(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const url = (parents[depth - 1] ?? '') + (match[2] ?? '');
    parents[depth] = url;
    parents.length = depth + 1;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean))
      if (method !== 'HEAD') routes.push({ method, url });
  }
  return routes;
}
