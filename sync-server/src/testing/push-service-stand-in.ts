import { spawnSync } from 'node:child_process';
import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type ReceivedPush = {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
};

/** A browser's side of a subscription: the keys it hands the server, and the private half to read pushes. */
export type StandInSubscription = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** Decrypts a push sent to this subscription (RFC 8291, aes128gcm) back to its text. */
  decrypt: (body: Buffer) => string;
};

/**
 * A local push service for tests: HTTPS (web-push speaks only https) with a certificate made
 * here by openssl, trusted through `agent`. It records every request and answers each path
 * with the status set by `answer` (201 by default, as real push services do).
 */
export async function startPushServiceStandIn() {
  const dir = mkdtempSync(path.join(tmpdir(), 'push-stand-in-'));
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0)
    throw new Error(`openssl could not make a test certificate: ${made.stderr}`);
  const key = readFileSync(path.join(dir, 'key.pem'));
  const cert = readFileSync(path.join(dir, 'cert.pem'));
  rmSync(dir, { recursive: true, force: true });

  const requests: ReceivedPush[] = [];
  const statusOf = new Map<string, number>();
  const server = createServer({ key, cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const pushPath = request.url ?? '/';
      requests.push({ path: pushPath, headers: request.headers, body: Buffer.concat(chunks) });
      response.statusCode = statusOf.get(pushPath) ?? 201;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string')
    throw new Error('the push stand-in is not listening');
  const origin = `https://127.0.0.1:${address.port}`;
  const agent = new Agent({ ca: cert, keepAlive: false });

  return {
    origin,
    agent,
    requests,
    /** From now on, pushes to `pushPath` are answered with `status` (410: the subscription is gone). */
    answer(pushPath: string, status: number) {
      statusOf.set(pushPath, status);
    },
    subscription(pushPath: string): StandInSubscription {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      return {
        endpoint: `${origin}${pushPath}`,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: auth.toString('base64url'),
        },
        decrypt: (body) => decryptAes128gcm(body, ecdh, auth),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** RFC 8188 content coding with RFC 8291's key derivation; one record is all a push holds. */
function decryptAes128gcm(body: Buffer, ecdh: ECDH, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublicKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const keyInfo = Buffer.concat([
    Buffer.from('WebPush: info\0'),
    ecdh.getPublicKey(),
    senderPublicKey,
  ]);
  const ikm = Buffer.from(
    hkdfSync('sha256', ecdh.computeSecret(senderPublicKey), auth, keyInfo, 32),
  );
  const derive = (info: string, length: number) =>
    Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from(`Content-Encoding: ${info}\0`), length));
  const decipher = createDecipheriv('aes-128-gcm', derive('aes128gcm', 16), derive('nonce', 12));
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([
    decipher.update(record.subarray(0, record.length - 16)),
    decipher.final(),
  ]);
  // The plaintext ends with the last-record delimiter 0x02, then zero padding.
  const delimiter = padded.lastIndexOf(2);
  return padded.subarray(0, delimiter).toString('utf8');
}
