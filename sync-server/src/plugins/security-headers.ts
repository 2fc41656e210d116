import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isFramedByTheApp, outsideServicesOf } from '@platform/schema/app/outside-services.rules';
import type { PushConfig } from '../adapters/notifier/push-config.ts';
import { contentSecurityPolicy, type PolicyContext } from '../web/content-security-policy.ts';
import { requestUrlOf } from '../web/request-url.ts';
import { ShellFile } from '../web/shell-file.ts';

/** Where the browser's Firebase Messaging asks for its token (pwa/src/features/notifications). */
const connectFor = (push: PushConfig): string[] =>
  push.adapter === 'firebase'
    ? ['https://firebaseinstallations.googleapis.com', 'https://fcmregistrations.googleapis.com']
    : [];

const pathnameOf = (request: IncomingMessage) => requestUrlOf(request.url).pathname;

/**
 * Security headers on every answer (@fastify/helmet): the Content-Security-Policy of
 * web/content-security-policy.ts for the request's page, nosniff, no framing, a referrer
 * policy that keeps paths on our site (origin only elsewhere: Google's sign-in checks it),
 * framed only by our own pages where the rules say so (the card-entry page),
 * HSTS behind https. Pages the server renders itself (log-out, development) set a stricter
 * policy of their own, which wins.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const https = app.config.publicUrl.startsWith('https:');
    const shell = new ShellFile(path.join(app.config.pwaDist, 'index.html'));
    // With Stripe every card form frames the card-entry page (decision 0063); otherwise no
    // page frames anything, and frame-src stays 'none'.
    const framesOwnPages = app.config.paymentProcessor === 'stripe';
    const context = (request?: IncomingMessage): PolicyContext => ({
      scriptHashes: shell.scriptHashes(),
      https,
      connect: connectFor(app.config.push),
      framesOwnPages,
      framedBySelf: request ? isFramedByTheApp(pathnameOf(request)) : false,
    });
    // Helmet asks once per directive; the policy is worked out once per request.
    const policies = new WeakMap<IncomingMessage, Map<string, string[]>>();
    const policyOf = (request: IncomingMessage) => {
      let policy = policies.get(request);
      if (!policy) {
        policy = contentSecurityPolicy(outsideServicesOf(pathnameOf(request)), context(request));
        policies.set(request, policy);
      }
      return policy;
    };
    const directiveNames = [...contentSecurityPolicy([], context()).keys()];
    const directives = Object.fromEntries(
      directiveNames.map((name) => [
        name,
        name === 'upgrade-insecure-requests'
          ? []
          : [(request: IncomingMessage) => (policyOf(request).get(name) ?? []).join(' ')],
      ]),
    );
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      xFrameOptions: { action: 'deny' },
      // Over plain http (development) HSTS means nothing; behind https it is helmet's default.
      ...(https ? {} : { strictTransportSecurity: false }),
    });
    app.addHook('onRequest', async (request, reply) => {
      // Google's account chooser is a popup that reports back to the page that opened it.
      if (outsideServicesOf(pathnameOf(request.raw)).includes('google-sign-in')) {
        reply.header('cross-origin-opener-policy', 'same-origin-allow-popups');
      }
      // Older browsers read X-Frame-Options only: the card-entry page, as frame-ancestors says.
      if (isFramedByTheApp(pathnameOf(request.raw))) reply.header('x-frame-options', 'SAMEORIGIN');
    });
  },
  { name: 'security-headers' },
);
