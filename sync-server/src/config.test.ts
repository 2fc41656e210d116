import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has working defaults for development, with a secret kept in DATA_DIR', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', publicUrl: 'http://127.0.0.1:3000', secureCookies: false });
    expect(config.databaseUrl).toBeUndefined();
    expect(readFileSync(path.join(dataDir, 'session-secret'), 'utf8')).toBe(config.sessionSecret);
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(config.sessionSecret);
  });

  it('names each malformed variable on its own line', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', SESSION_SECRET: 'short' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toMatch(/^ {2}PORT: /m);
      expect(message).toMatch(/^ {2}DATABASE_URL: DATABASE_URL must be a postgres:\/\/ URL$/m);
      expect(message).toMatch(/^ {2}SESSION_SECRET: SESSION_SECRET must be at least 32 characters$/m);
    }
  });

  it('keeps audit rows 365 days unless AUDIT_RETENTION_DAYS says otherwise, and names a bad value', () => {
    const test = { NODE_ENV: 'test' as const, SESSION_SECRET: 'x'.repeat(40) };
    expect(loadConfig(test).auditRetentionDays).toBe(365);
    expect(loadConfig({ ...test, AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
    for (const [value, message] of [
      ['0', 'AUDIT_RETENTION_DAYS must be at least 1'],
      ['1.5', 'AUDIT_RETENTION_DAYS must be a whole number of days'],
      ['a year', 'AUDIT_RETENTION_DAYS must be a whole number of days'],
    ] as const)
      expect(() => loadConfig({ ...test, AUDIT_RETENTION_DAYS: value })).toThrow(
        new RegExp(`^ {2}AUDIT_RETENTION_DAYS: ${message}$`, 'm'),
      );
  });

  it('requires SESSION_SECRET in production and marks cookies Secure behind https', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET: required in production/);
    const config = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://app.example' });
    expect(config.secureCookies).toBe(true);
  });

  it('selects Stripe with STRIPE_SECRET_KEY, which needs the webhook signing secret; else the sandbox', () => {
    const test = { NODE_ENV: 'test' as const, SESSION_SECRET: 'x'.repeat(40) };
    expect(loadConfig(test).stripe).toBeNull();
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
    };
    expect(loadConfig({ ...test, ...stripe }).stripe).toEqual({
      secretKey: 'sk_test_abc',
      webhookSecret: 'whsec_abc',
      publishableKey: 'pk_test_abc',
      apiBase: undefined,
    });
    expect(loadConfig({ ...test, ...stripe, STRIPE_API_BASE: 'http://127.0.0.1:12111' }).stripe?.apiBase).toBe(
      'http://127.0.0.1:12111',
    );
    expect(() => loadConfig({ ...test, STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow(
      /^ {2}STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY$/m,
    );
    // Decision 0063: the card-entry page loads Stripe.js with the publishable key.
    expect(() => loadConfig({ ...test, ...stripe, STRIPE_PUBLISHABLE_KEY: undefined })).toThrow(
      /^ {2}STRIPE_PUBLISHABLE_KEY: required with STRIPE_SECRET_KEY$/m,
    );
    expect(() => loadConfig({ ...test, STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' })).toThrow(
      /^ {2}STRIPE_PUBLISHABLE_KEY: only read with STRIPE_SECRET_KEY$/m,
    );
    expect(() => loadConfig({ ...test, ...stripe, STRIPE_PUBLISHABLE_KEY: 'sk_test_abc' })).toThrow(
      /^ {2}STRIPE_PUBLISHABLE_KEY: STRIPE_PUBLISHABLE_KEY must be the publishable key \(pk_…\)/m,
    );
    expect(() => loadConfig({ ...test, STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(
      /^ {2}STRIPE_SECRET_KEY: required with STRIPE_WEBHOOK_SECRET$/m,
    );
    expect(() => loadConfig({ ...test, ...stripe, STRIPE_SECRET_KEY: 'pk_test_abc' })).toThrow(
      /^ {2}STRIPE_SECRET_KEY: STRIPE_SECRET_KEY must be a secret or restricted key/m,
    );
    expect(() => loadConfig({ ...test, ...stripe, STRIPE_API_BASE: 'ftp://x' })).toThrow(ConfigError);
  });

  it('names the processor with PAYMENT_PROCESSOR: stripe with a key, else the sandbox, or none (decision 0061)', () => {
    const test = { NODE_ENV: 'test' as const, SESSION_SECRET: 'x'.repeat(40) };
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
    };
    expect(loadConfig(test).paymentProcessor).toBe('sandbox');
    expect(loadConfig({ ...test, ...stripe }).paymentProcessor).toBe('stripe');
    expect(loadConfig({ ...test, PAYMENT_PROCESSOR: 'sandbox' }).paymentProcessor).toBe('sandbox');
    expect(loadConfig({ ...test, PAYMENT_PROCESSOR: 'none' })).toMatchObject({
      paymentProcessor: 'none',
      stripe: null,
    });
    expect(loadConfig({ ...test, ...stripe, PAYMENT_PROCESSOR: 'stripe' }).stripe?.secretKey).toBe(
      'sk_test_abc',
    );
    expect(() => loadConfig({ ...test, PAYMENT_PROCESSOR: 'stripe' })).toThrow(
      /^ {2}PAYMENT_PROCESSOR: stripe needs STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY/m,
    );
    for (const other of ['sandbox', 'none']) {
      expect(() => loadConfig({ ...test, ...stripe, PAYMENT_PROCESSOR: other })).toThrow(
        new RegExp(`^ {2}STRIPE_SECRET_KEY: only read with PAYMENT_PROCESSOR=stripe, not ${other}`, 'm'),
      );
    }
    expect(() => loadConfig({ ...test, PAYMENT_PROCESSOR: 'paypal' })).toThrow(
      /^ {2}PAYMENT_PROCESSOR: PAYMENT_PROCESSOR must be sandbox, stripe or none$/m,
    );
  });

  describe('TRUST_PROXY (which proxies may name the client address)', () => {
    const base = { NODE_ENV: 'test' as const, SESSION_SECRET: 'x'.repeat(40) };
    it('trusts no proxy unless told, so X-Forwarded-For is ignored', () => {
      expect(loadConfig(base).trustProxy).toBe(false);
      expect(loadConfig({ ...base, TRUST_PROXY: '' }).trustProxy).toBe(false);
      expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    });

    it('takes true, a hop count, or a list of addresses, CIDRs and proxy-addr names', () => {
      expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
      expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toBe(2);
      expect(
        loadConfig({ ...base, TRUST_PROXY: ' 10.0.0.1, 192.168.0.0/16 ,fd00::/8,loopback' }).trustProxy,
      ).toEqual(['10.0.0.1', '192.168.0.0/16', 'fd00::/8', 'loopback']);
    });

    it('refuses anything else with a line of its own', () => {
      for (const bad of ['yes', '10.0.0.300', '10.0.0.0/33', 'fd00::/129', '10.0.0.1,,', '-1']) {
        expect(() => loadConfig({ ...base, TRUST_PROXY: bad })).toThrow(
          /^ {2}TRUST_PROXY: TRUST_PROXY must be true, a hop count, or a comma-separated list of proxy addresses or CIDRs/m,
        );
      }
    });
  });

  describe('push notifications (Notifier adapter)', () => {
    const vapid = {
      VAPID_PUBLIC_KEY: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      VAPID_PRIVATE_KEY: 'UUxI4O8-FbRouAevSmBQ6o18hgE4nSG3qwvJTfKc-ls',
    };
    const account = { project_id: 'demo', client_email: 'push@demo.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n' };
    const webConfig = { apiKey: 'k', projectId: 'demo', messagingSenderId: '1', appId: '1:1:web:1', vapidKey: 'BPublic' };
    const test = { NODE_ENV: 'test' as const, SESSION_SECRET: 'x'.repeat(40) };

    it('records only in tests; in development generates a VAPID pair once, kept in DATA_DIR', () => {
      expect(loadConfig(test).push).toEqual({ adapter: 'outbox' });
      const dataDir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
      const push = loadConfig({ DATA_DIR: dataDir }).push;
      if (push.adapter !== 'web-push') throw new Error(`expected web-push, got ${push.adapter}`);
      expect(JSON.parse(readFileSync(path.join(dataDir, 'vapid-keys.json'), 'utf8'))).toEqual({ publicKey: push.vapid.publicKey, privateKey: push.vapid.privateKey });
      expect(loadConfig({ DATA_DIR: dataDir }).push).toEqual(push);
    });

    it('uses the VAPID keys given, and Firebase (JSON or a file) over them', () => {
      expect(loadConfig({ ...test, ...vapid, VAPID_SUBJECT: 'mailto:ops@example.com' }).push).toEqual({
        adapter: 'web-push',
        vapid: { subject: 'mailto:ops@example.com', publicKey: vapid.VAPID_PUBLIC_KEY, privateKey: vapid.VAPID_PRIVATE_KEY },
      });
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'cfg-')), 'service-account.json');
      writeFileSync(file, JSON.stringify(account));
      for (const serviceAccount of [JSON.stringify(account), file]) {
        const push = loadConfig({ ...test, ...vapid, FIREBASE_SERVICE_ACCOUNT: serviceAccount, FIREBASE_WEB_CONFIG: JSON.stringify(webConfig) }).push;
        expect(push).toEqual({
          adapter: 'firebase',
          serviceAccount: account,
          web: { firebaseConfig: { apiKey: 'k', projectId: 'demo', messagingSenderId: '1', appId: '1:1:web:1' }, vapidKey: 'BPublic' },
        });
      }
    });

    it('names each push problem on its own line', () => {
      const problems = (env: Record<string, string>) => {
        try {
          loadConfig({ ...test, ...env });
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          return (error as Error).message;
        }
        throw new Error('expected a ConfigError');
      };
      const malformed = problems({ FIREBASE_SERVICE_ACCOUNT: '/nonexistent/sa.json', FIREBASE_WEB_CONFIG: '{"apiKey":1}', VAPID_PUBLIC_KEY: 'short', VAPID_SUBJECT: 'http://x' });
      expect(malformed).toMatch(/^ {2}FIREBASE_SERVICE_ACCOUNT: FIREBASE_SERVICE_ACCOUNT names no readable file: \/nonexistent\/sa.json \(give the JSON or its path\)$/m);
      expect(malformed).toMatch(/^ {2}FIREBASE_WEB_CONFIG: FIREBASE_WEB_CONFIG must be the web app config JSON with apiKey, projectId, messagingSenderId and appId$/m);
      expect(malformed).toMatch(/^ {2}VAPID_PUBLIC_KEY: VAPID_PUBLIC_KEY must be a base64url P-256 key of 65 bytes/m);
      expect(malformed).toMatch(/^ {2}VAPID_SUBJECT: VAPID_SUBJECT must be a mailto: address or an https: URL/m);
      expect(problems({ FIREBASE_SERVICE_ACCOUNT: JSON.stringify(account), VAPID_PUBLIC_KEY: vapid.VAPID_PUBLIC_KEY })).toMatch(
        /^ {2}FIREBASE_WEB_CONFIG: required with FIREBASE_SERVICE_ACCOUNT\n {2}VAPID_PRIVATE_KEY: required with VAPID_PUBLIC_KEY$/m,
      );
      expect(problems({ FIREBASE_SERVICE_ACCOUNT: JSON.stringify(account), FIREBASE_WEB_CONFIG: JSON.stringify({ ...webConfig, projectId: 'other' }) })).toMatch(
        /^ {2}FIREBASE_WEB_CONFIG: projectId other is not the service account's project demo$/m,
      );
      expect(problems({ ...vapid, NODE_ENV: 'production' })).toMatch(/^ {2}VAPID_SUBJECT: required with VAPID keys in production/m);
    });
  });
});
