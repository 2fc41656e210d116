import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';

export const GOOGLE_TEST_CLIENT_ID = 'test-client.apps.googleusercontent.com';
type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

/**
 * A local stand-in for Google's signing keys: `keys` for the app (createTestApp googleKeys),
 * `sign` for ID tokens it trusts, `forger` for a key it must not.
 */
export async function googleSigner() {
  const trusted = await generateKeyPair('RS256');
  const forger = await generateKeyPair('RS256');
  const jwk = {
    ...(await exportJWK(trusted.publicKey)),
    kid: 'test-key',
    alg: 'RS256',
    use: 'sig',
  };
  const keys = createLocalJWKSet({ keys: [jwk] });
  const sign = (
    claims: JWTPayload,
    options: { key?: KeyPair; audience?: string; expiresIn?: string | number } = {},
  ) =>
    new SignJWT({ email_verified: true, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setIssuer('https://accounts.google.com')
      .setAudience(options.audience ?? GOOGLE_TEST_CLIENT_ID)
      .setSubject(String(claims.sub ?? randomUUID()))
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m')
      .sign((options.key ?? trusted).privateKey);
  return { keys, sign, forger };
}
