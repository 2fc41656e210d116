import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import {
  firebaseWebConfigSchema,
  type FirebaseWebConfig,
} from '@platform/schema/notifications/notifications.zod';
import type { FirebaseServiceAccount } from './firebase.ts';
import type { VapidDetails } from './web-push.ts';

/** Which Notifier adapter this server uses, and what it needs (DESIGN.md Ports: Notifier). */
export type PushConfig =
  | {
      adapter: 'firebase';
      serviceAccount: FirebaseServiceAccount;
      web: { firebaseConfig: FirebaseWebConfig; vapidKey: string | null };
    }
  | { adapter: 'web-push'; vapid: VapidDetails }
  | { adapter: 'outbox' };

const serviceAccountSchema = z.object({
  project_id: z.string().min(1),
  client_email: z.string().min(1),
  private_key: z.string().includes('PRIVATE KEY'),
});

/** FIREBASE_WEB_CONFIG: the web app's config, plus the project's own public push key if it has one. */
const webConfigEnvSchema = firebaseWebConfigSchema.extend({
  vapidKey: z.string().min(1).optional(),
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A base64url string that decodes to `bytes` bytes (an uncompressed P-256 point or scalar). */
const vapidKey = (name: string, bytes: number) =>
  z
    .string()
    .refine(
      (text) => /^[\w-]+=*$/.test(text) && Buffer.from(text, 'base64url').length === bytes,
      `${name} must be a base64url P-256 key of ${bytes} bytes (web-push generate-vapid-keys makes a pair)`,
    );

/** Environment variables of the Notifier; config.ts spreads these into its schema. */
export const pushEnvShape = {
  /** The service account JSON itself, or the path of its file. */
  FIREBASE_SERVICE_ACCOUNT: z
    .string()
    .transform((value, ctx) => {
      let text = value;
      if (!value.trimStart().startsWith('{')) {
        try {
          text = readFileSync(path.resolve(value), 'utf8');
        } catch {
          ctx.addIssue(
            `FIREBASE_SERVICE_ACCOUNT names no readable file: ${value} (give the JSON or its path)`,
          );
          return z.NEVER;
        }
      }
      const account = serviceAccountSchema.safeParse(parseJson(text));
      if (!account.success) {
        ctx.addIssue(
          'FIREBASE_SERVICE_ACCOUNT must be a service account JSON with project_id, client_email and private_key',
        );
        return z.NEVER;
      }
      return account.data;
    })
    .optional(),
  FIREBASE_WEB_CONFIG: z
    .string()
    .transform((value, ctx) => {
      const config = webConfigEnvSchema.safeParse(parseJson(value));
      if (!config.success) {
        ctx.addIssue(
          'FIREBASE_WEB_CONFIG must be the web app config JSON with apiKey, projectId, messagingSenderId and appId',
        );
        return z.NEVER;
      }
      return config.data;
    })
    .optional(),
  VAPID_PUBLIC_KEY: vapidKey('VAPID_PUBLIC_KEY', 65).optional(),
  VAPID_PRIVATE_KEY: vapidKey('VAPID_PRIVATE_KEY', 32).optional(),
  VAPID_SUBJECT: z
    .string()
    .refine(
      (value) => /^mailto:.+@.+/.test(value) || /^https:\/\/[^/]+/.test(value),
      'VAPID_SUBJECT must be a mailto: address or an https: URL push services can contact',
    )
    .optional(),
};

type PushEnv = z.output<z.ZodObject<typeof pushEnvShape>>;

/**
 * Firebase when both its variables are set; else Web Push with the VAPID keys given, or in
 * development a pair generated once and kept in DATA_DIR; else (tests, or production without
 * either) the outbox, which only records. Problems come back one line each.
 */
export function resolvePushConfig(
  e: PushEnv,
  context: { env: 'development' | 'production' | 'test'; dataDir: string },
): { ok: true; config: PushConfig } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const account = e.FIREBASE_SERVICE_ACCOUNT;
  const web = e.FIREBASE_WEB_CONFIG;
  if (account && !web) problems.push('FIREBASE_WEB_CONFIG: required with FIREBASE_SERVICE_ACCOUNT');
  if (web && !account) problems.push('FIREBASE_SERVICE_ACCOUNT: required with FIREBASE_WEB_CONFIG');
  if (account && web && account.project_id !== web.projectId) {
    problems.push(
      `FIREBASE_WEB_CONFIG: projectId ${web.projectId} is not the service account's project ${account.project_id}`,
    );
  }
  if (e.VAPID_PUBLIC_KEY && !e.VAPID_PRIVATE_KEY)
    problems.push('VAPID_PRIVATE_KEY: required with VAPID_PUBLIC_KEY');
  if (e.VAPID_PRIVATE_KEY && !e.VAPID_PUBLIC_KEY)
    problems.push('VAPID_PUBLIC_KEY: required with VAPID_PRIVATE_KEY');
  const hasVapid = Boolean(e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY);
  if (hasVapid && !account && !e.VAPID_SUBJECT && context.env === 'production') {
    problems.push(
      'VAPID_SUBJECT: required with VAPID keys in production (a mailto: address or https: URL)',
    );
  }
  if (problems.length > 0) return { ok: false, problems };

  if (account && web) {
    const { vapidKey, ...firebaseConfig } = web;
    return {
      ok: true,
      config: {
        adapter: 'firebase',
        serviceAccount: account,
        web: { firebaseConfig, vapidKey: vapidKey ?? null },
      },
    };
  }
  const subject = e.VAPID_SUBJECT ?? 'mailto:push@example.com';
  if (e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY) {
    return {
      ok: true,
      config: {
        adapter: 'web-push',
        vapid: { subject, publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY },
      },
    };
  }
  if (context.env === 'development') {
    return {
      ok: true,
      config: { adapter: 'web-push', vapid: { subject, ...developmentVapidKeys(context.dataDir) } },
    };
  }
  return { ok: true, config: { adapter: 'outbox' } };
}

const storedKeysSchema = z.object({ publicKey: z.string().min(1), privateKey: z.string().min(1) });

/** Development only: a VAPID pair generated once and kept in DATA_DIR, so subscriptions survive restarts. */
function developmentVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  const file = path.join(dataDir, 'vapid-keys.json');
  try {
    return storedKeysSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const keys = webpush.generateVAPIDKeys();
    writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
    return keys;
  }
}
