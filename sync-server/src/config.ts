import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { pushEnvShape, resolvePushConfig, type PushConfig } from './adapters/notifier/push-config.ts';
import type { ProcessorKind } from '@platform/schema/payments/processor.zod';
import { paymentEnvShape, resolvePaymentConfig } from './adapters/payments/payment-config.ts';
import type { StripeConfig } from './adapters/payments/stripe-config.ts';
import { devToolsEnvShape, resolveDevTools } from './dev-tools/dev-tools.config.ts';

const trustProxyMessage =
  'TRUST_PROXY must be true, a hop count, or a comma-separated list of proxy addresses or CIDRs (such as 10.0.0.1,192.168.0.0/16, or loopback)';

/** An address, a CIDR, or one of proxy-addr's names for ranges. */
function isProxyEntry(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies may name the client's address in X-Forwarded-For (Fastify's trustProxy). Unset:
 * none, so a client cannot pick the address the rate limits count against.
 */
const trustProxySchema = z
  .string()
  .optional()
  .transform((raw, ctx): boolean | number | string[] => {
    const value = raw?.trim() ?? '';
    if (value === '' || value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    if (entries.every(isProxyEntry)) return entries;
    ctx.addIssue({ code: 'custom', message: trustProxyMessage });
    return z.NEVER;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.url({ message: 'DATABASE_URL must be a postgres:// URL' }).optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  PUBLIC_URL: z.url({ message: 'PUBLIC_URL must be an absolute URL such as https://app.example.com' }).optional(),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  SMTP_URL: z.url({ message: 'SMTP_URL must be a URL such as smtp://user:pass@host:587' }).optional(),
  MAIL_FROM: z.string().default('Coaching Platform <no-reply@localhost>'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  /** A JSON Web Key Set URL for Google ID tokens (Google's own by default). */
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  PWA_DIST: z.string().optional(),
  /** How long audit rows are kept before the hourly prune job deletes them (decision 0016). */
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ message: 'AUDIT_RETENTION_DAYS must be a whole number of days' })
    .int('AUDIT_RETENTION_DAYS must be a whole number of days')
    .min(1, 'AUDIT_RETENTION_DAYS must be at least 1')
    .max(36_500, 'AUDIT_RETENTION_DAYS must be at most 36500 (100 years)')
    .default(365),
  TRUST_PROXY: trustProxySchema,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ...pushEnvShape,
  ...paymentEnvShape,
  ...devToolsEnvShape,
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  secureCookies: boolean;
  sessionSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  google: { clientId: string | undefined; jwksUrl: string };
  push: PushConfig;
  /** Which processor takes cards (PAYMENT_PROCESSOR, decision 0061). */
  paymentProcessor: ProcessorKind;
  /** Stripe's settings when it is the processor, otherwise null (decision 0057). */
  stripe: StripeConfig;
  /** /dev/* and /api/dev/* exist (dev-tools/dev-tools.config.ts says when they may). */
  devTools: boolean;
  pwaDist: string;
  /** Passed to Fastify's trustProxy: false, true, a hop count, or proxy addresses and CIDRs. */
  trustProxy: boolean | number | string[];
  logLevel: string;
  auditRetentionDays: number;
};

export class ConfigError extends Error {}

/** Reads and validates the environment; each problem gets its own line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = e.PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' ? 'localhost' : e.HOST}:${e.PORT}`;
  let sessionSecret = e.SESSION_SECRET;
  if (!sessionSecret) {
    if (e.NODE_ENV === 'production') throw new ConfigError('Invalid configuration:\n  SESSION_SECRET: required in production');
    sessionSecret = developmentSecret(dataDir);
  }
  const push = resolvePushConfig(e, { env: e.NODE_ENV, dataDir });
  if (!push.ok) throw new ConfigError(`Invalid configuration:\n${push.problems.map((p) => `  ${p}`).join('\n')}`);
  const payments = resolvePaymentConfig(e);
  if (!payments.ok) throw new ConfigError(`Invalid configuration:\n${payments.problems.map((p) => `  ${p}`).join('\n')}`);
  const devTools = resolveDevTools(e, { rawNodeEnv: env.NODE_ENV, publicUrl });
  if (!devTools.ok) throw new ConfigError(`Invalid configuration:\n${devTools.problems.map((p) => `  ${p}`).join('\n')}`);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    publicUrl,
    secureCookies: publicUrl.startsWith('https:'),
    sessionSecret,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    google: { clientId: e.GOOGLE_CLIENT_ID, jwksUrl: e.GOOGLE_JWKS_URL },
    push: push.config,
    paymentProcessor: payments.config.processor,
    stripe: payments.config.stripe,
    devTools: devTools.enabled,
    pwaDist: path.resolve(e.PWA_DIST ?? path.join(import.meta.dirname, '../../pwa/dist')),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
  };
}

/** Development only: a secret generated once and kept in DATA_DIR so sessions survive restarts. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
