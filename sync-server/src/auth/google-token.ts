import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { googleLoginErrors } from '@platform/schema/auth/google.zod';
import { GoogleSignInFailed } from './auth.errors.ts';

export type GoogleKeys = JWTVerifyGetKey;

const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/** What we use of a Google ID token, checked like any other outside answer. */
const googleClaimsSchema = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  // Some older tokens carry the string form.
  email_verified: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
    .optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  name: z.string().optional(),
});
export type GoogleClaims = z.infer<typeof googleClaimsSchema>;

export type GoogleVerifier = (idToken: string) => Promise<GoogleClaims>;

/**
 * Verifies signature (Google's published keys, or the injected test keys), issuer, audience
 * and expiry. Without a client id Google sign-in is off.
 */
export function googleVerifier(
  config: { clientId: string | undefined; jwksUrl: string },
  keys?: GoogleKeys,
): GoogleVerifier {
  const { clientId } = config;
  if (!clientId) {
    return async () => {
      throw new GoogleSignInFailed(
        googleLoginErrors.unavailable,
        'GOOGLE_CLIENT_ID is not configured',
      );
    };
  }
  const keySet = keys ?? createRemoteJWKSet(new URL(config.jwksUrl));
  return async (idToken) => {
    try {
      const { payload } = await jwtVerify(idToken, keySet, {
        issuer: GOOGLE_ISSUERS,
        audience: clientId,
        algorithms: ['RS256'],
      });
      return googleClaimsSchema.parse(payload);
    } catch (error) {
      throw new GoogleSignInFailed(
        googleLoginErrors.invalid,
        error instanceof Error ? error.message : 'invalid token',
      );
    }
  };
}
