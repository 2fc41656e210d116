import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Forbidden } from './domain-errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Other origins allowed to post to this one route, e.g. Google's sign-in page posting back
     * (such a route must carry its own CSRF proof, like Google's g_csrf_token double submit).
     */
    crossSiteOrigins?: readonly string[];
    /**
     * A server-to-server call proven by its own signature (the payment processor's webhook): it
     * carries no cookie to abuse and acts for no session, so the origin check does not apply.
     */
    signedByCaller?: true;
  }
}

/**
 * CSRF defence for cookie-authenticated writes: session cookies are SameSite=Lax, and every
 * state-changing request that a browser marks with Origin (or Referer) must come from our own
 * origin. Non-browser clients send neither and carry no ambient cookies to abuse.
 * See docs/decisions/0004-sessions-and-csrf.md.
 */
export const csrfPlugin = fp(
  async (app: FastifyInstance, opts: { publicUrl: string }) => {
    const allowed = new Set([new URL(opts.publicUrl).origin]);
    app.addHook('onRequest', async (request) => {
      if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS')
        return;
      if (request.routeOptions.config.signedByCaller) return;
      const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
      if (!origin) return;
      const host = request.headers.host;
      const sameHost =
        host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
      if (sameHost || allowed.has(origin)) return;
      if (request.routeOptions.config.crossSiteOrigins?.includes(origin)) return;
      throw new Forbidden('Cross-site request refused.');
    });
  },
  { name: 'csrf' },
);

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}
