import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import type { Claim } from '@platform/schema/organizations/claims';
import {
  findLiveSession,
  insertSession,
  REFRESH_TOKEN_DAYS,
  revokeSession,
  rotateRefreshToken,
  type NewSession,
} from '../auth/sessions.service.ts';
import { Forbidden, Unauthenticated } from './domain-errors.ts';

export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export type SessionContext = NonNullable<Awaited<ReturnType<typeof findLiveSession>>> & {
  sessionId: string;
};

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sid: string; uid: string };
    user: { sid: string; uid: string };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: {
      start(reply: FastifyReply, input: NewSession): Promise<{ sessionId: string }>;
      end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    };
  }
  interface FastifyRequest {
    /** The signed-in session, resolved once per request (refreshing an expired access token). */
    getSession(): Promise<SessionContext | null>;
    /** Set-Cookie values this request issued (a refresh), serialised. */
    issuedCookies: string[];
  }
}

export const sessionPlugin = fp(
  async (app: FastifyInstance, opts: { secret: string; secureCookies: boolean }) => {
    await app.register(cookie);
    await app.register(jwt, {
      secret: opts.secret,
      cookie: { cookieName: ACCESS_COOKIE, signed: false },
      sign: { expiresIn: ACCESS_TOKEN_TTL_SECONDS },
    });
    const base = {
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: opts.secureCookies,
      path: '/',
    };

    function setCookies(
      reply: FastifyReply,
      sessionId: string,
      userId: string,
      refreshToken: string | null,
    ) {
      const cookies: Array<[string, string, typeof base & { maxAge: number }]> = [
        [
          ACCESS_COOKIE,
          app.jwt.sign({ sid: sessionId, uid: userId }),
          { ...base, maxAge: ACCESS_TOKEN_TTL_SECONDS },
        ],
      ];
      if (refreshToken)
        cookies.push([
          REFRESH_COOKIE,
          refreshToken,
          { ...base, maxAge: REFRESH_TOKEN_DAYS * 86_400 },
        ]);
      for (const [name, value, options] of cookies) {
        reply.setCookie(name, value, options);
        // Kept serialised too, for routes that hijack the reply (the SSE stream) and so skip
        // the cookie plugin's onSend hook.
        reply.request.issuedCookies.push(app.serializeCookie(name, value, options));
      }
    }

    app.decorate('sessions', {
      async start(reply: FastifyReply, input: NewSession) {
        const { sessionId, refreshToken } = await insertSession(app.db, input);
        setCookies(reply, sessionId, input.userId, refreshToken);
        return { sessionId };
      },
      async end(request: FastifyRequest, reply: FastifyReply) {
        const session = await request.getSession();
        if (session) await revokeSession(app.db, session.sessionId);
        reply.clearCookie(ACCESS_COOKIE, base);
        reply.clearCookie(REFRESH_COOKIE, base);
      },
    });

    const resolved = new WeakMap<FastifyRequest, Promise<SessionContext | null>>();
    async function resolve(
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<SessionContext | null> {
      let sessionId: string;
      try {
        sessionId = (await request.jwtVerify<{ sid: string; uid: string }>({ onlyCookie: true }))
          .sid;
      } catch {
        const refresh = request.cookies[REFRESH_COOKIE];
        if (!refresh) return null;
        const rotated = await rotateRefreshToken(app.db, refresh);
        if (!rotated) {
          reply.clearCookie(REFRESH_COOKIE, base);
          return null;
        }
        const live = await findLiveSession(app.db, rotated.sessionId);
        if (!live) return null;
        setCookies(reply, rotated.sessionId, live.user.id, rotated.refreshToken);
        return { ...live, sessionId: rotated.sessionId };
      }
      const live = await findLiveSession(app.db, sessionId);
      return live ? { ...live, sessionId } : null;
    }

    app.decorateRequest('getSession', function (this: FastifyRequest) {
      throw new Error('getSession is bound per request');
    });
    // A fresh array per request (onRequest below); a shared default would leak across requests.
    app.decorateRequest('issuedCookies', null as unknown as string[]);
    app.addHook('onRequest', async (request, reply) => {
      request.issuedCookies = [];
      request.getSession = () => {
        let pending = resolved.get(request);
        if (!pending) {
          pending = resolve(request, reply);
          resolved.set(request, pending);
        }
        return pending;
      };
    });
  },
  { name: 'session', dependencies: ['db'] },
);

export async function requireSession(request: FastifyRequest): Promise<SessionContext> {
  const session = await request.getSession();
  if (!session) throw new Unauthenticated('You need to log in.');
  return session;
}

/**
 * A `preValidation` hook for routes that need a session: it runs before the route's schemas are
 * checked, so a caller without a session gets 401 and learns nothing about the input's shape.
 */
export async function sessionFirst(request: FastifyRequest): Promise<void> {
  await requireSession(request);
}

/**
 * A `preValidation` hook for `/:orgId/…` routes that take a body: the claim in the path's
 * organisation is checked before the body is read (403 before 400). A malformed `orgId` is
 * left to the route's params schema (400).
 */
export function orgClaimFirst(anyOf: readonly Claim[]) {
  return async (request: FastifyRequest): Promise<void> => {
    const orgId = z.uuid().safeParse((request.params as { orgId?: unknown }).orgId);
    if (orgId.success) await requireClaim(request, orgId.data.toLowerCase(), anyOf);
  };
}

/** Staff of `orgId` holding one of `anyOf` (org view). Other organisations and customers: 403. */
export async function requireClaim(
  request: FastifyRequest,
  orgId: string,
  anyOf: readonly Claim[],
): Promise<SessionContext> {
  const session = await requireSession(request);
  if (session.session.view !== 'org' || session.session.orgId !== orgId)
    throw new Forbidden('Not allowed for this organization.');
  if (!anyOf.some((claim) => session.claims.includes(claim)))
    throw new Forbidden('You do not have permission to do this.');
  return session;
}
