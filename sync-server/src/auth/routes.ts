import type { FastifyInstance } from 'fastify';
import { googleRoutes } from './google.routes.ts';
import type { GoogleKeys } from './google-token.ts';
import { loginRoutes } from './login.routes.ts';
import { logoutRoutes } from './logout.routes.ts';
import { meRoutes } from './me.routes.ts';
import { passwordResetRoutes } from './password-reset.routes.ts';
import { signupRoutes } from './signup.routes.ts';

export type AuthRoutesOptions = { googleKeys?: GoogleKeys | undefined };

/** Sign-up, log-in and out, password reset, Google, account switching and /api/me. */
export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  await app.register(loginRoutes);
  await app.register(logoutRoutes);
  await app.register(signupRoutes);
  await app.register(passwordResetRoutes);
  await app.register(googleRoutes, { googleKeys: opts.googleKeys });
  await app.register(meRoutes);
  app.get('/api/auth/config', async () => ({ googleClientId: app.config.google.clientId ?? null }));
}
