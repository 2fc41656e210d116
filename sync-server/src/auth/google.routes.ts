import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { googleLoginFormSchema, googleRedirectFormSchema } from '@platform/schema/auth/google.zod';
import { GoogleSignInFailed } from './auth.errors.ts';
import { googleVerifier, type GoogleKeys } from './google-token.ts';
import { signInWithGoogle, type GoogleSignIn } from './google.service.ts';

const GOOGLE_ORIGIN = 'https://accounts.google.com';
const redirectQuerySchema = z.object({
  redirectTo: z.string().optional(),
  // The branded app the person came from; anything but a lower-case UUID is ignored.
  orgId: z.uuid().optional().catch(undefined),
});
// A malformed form is not refused: it carries no token, and signing in fails with a redirect.
const loginForm = googleLoginFormSchema.optional().catch(undefined);
const redirectForm = googleRedirectFormSchema.optional().catch(undefined);

/** spec §7 Google sign-in: both endpoints are browser form posts and always answer a 303. */
export async function googleRoutes(
  app: FastifyInstance,
  opts: { googleKeys?: GoogleKeys | undefined },
) {
  const verify = googleVerifier(app.config.google, opts.googleKeys);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/auth/login-with-google', { schema: { body: loginForm } }, async (request, reply) => {
    const form = request.body;
    return complete(request, reply, {
      idToken: form?.id_token ?? '',
      redirectTo: form?.redirect_to,
      orgFields: form?.org_fields,
    });
  });

  // Google Identity Services (redirect mode) posts here from accounts.google.com, with the
  // g_csrf_token double-submit cookie as its CSRF proof.
  api.post(
    '/auth/external/login/google',
    {
      schema: { querystring: redirectQuerySchema, body: redirectForm },
      config: { crossSiteOrigins: [GOOGLE_ORIGIN] },
    },
    async (request, reply) => {
      const { redirectTo, orgId } = request.query;
      const form = request.body;
      // Google's `credential` must come with the g_csrf_token body field equal to its cookie.
      const proof = form?.g_csrf_token;
      const proven = proof ? proof === request.cookies['g_csrf_token'] : !form?.credential;
      const token = proven ? (form?.credential ?? form?.id_token ?? '') : '';
      return complete(request, reply, {
        idToken: token,
        redirectTo,
        orgFields: undefined,
        orgId: orgId?.toLowerCase(),
      });
    },
  );

  // A missing token fails verification like a forged one; no client id fails as 'unavailable'.
  async function complete(request: FastifyRequest, reply: FastifyReply, signIn: GoogleSignIn) {
    try {
      const signedIn = await signInWithGoogle(app.db, verify, signIn);
      await app.sessions.start(reply, { ...signedIn, userAgent: request.headers['user-agent'] });
      return reply.redirect(signedIn.redirectTo, 303);
    } catch (error) {
      if (!(error instanceof GoogleSignInFailed)) throw error;
      request.log.info({ reason: error.message }, 'google sign-in refused');
      return reply.redirect(`/auth/login?error=${error.code}`, 303);
    }
  }
}
