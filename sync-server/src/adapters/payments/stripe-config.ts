import { z } from 'zod';

/** Stripe's settings when it is the processor; null: the sandbox (decision 0057). */
export type StripeConfig = {
  secretKey: string;
  webhookSecret: string;
  apiBase: string | undefined;
} | null;

/** Environment variables of the Stripe adapter; config.ts spreads these into its schema. */
export const stripeEnvShape = {
  STRIPE_SECRET_KEY: z
    .string()
    .regex(
      /^(sk|rk)_\w+$/,
      'STRIPE_SECRET_KEY must be a secret or restricted key (sk_… or rk_…), not the publishable pk_… key',
    )
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'STRIPE_WEBHOOK_SECRET must be the endpoint’s signing secret (whsec_…)')
    .optional(),
  /** Another endpoint than Stripe's own, such as a local server speaking its wire format. */
  STRIPE_API_BASE: z
    .url({ message: 'STRIPE_API_BASE must be an http(s) URL such as http://127.0.0.1:12111' })
    .refine((url) => /^https?:/.test(url), 'STRIPE_API_BASE must be an http(s) URL')
    .optional(),
};

type StripeEnv = z.output<z.ZodObject<typeof stripeEnvShape>>;

/**
 * Stripe when STRIPE_SECRET_KEY is set — and then its webhooks' signing secret is required too,
 * or renewals would go unheard; otherwise the sandbox. Problems come back one line each.
 */
export function resolveStripeConfig(
  e: StripeEnv,
): { ok: true; config: StripeConfig } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET)
    problems.push('STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY');
  if (!e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET)
    problems.push('STRIPE_SECRET_KEY: required with STRIPE_WEBHOOK_SECRET');
  if (!e.STRIPE_SECRET_KEY && e.STRIPE_API_BASE)
    problems.push('STRIPE_API_BASE: only read with STRIPE_SECRET_KEY');
  if (problems.length > 0) return { ok: false, problems };
  if (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET) return { ok: true, config: null };
  return {
    ok: true,
    config: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE,
    },
  };
}
