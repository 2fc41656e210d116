import { z } from 'zod';

/** Stripe's settings when it is the processor; null: the sandbox (decision 0057). */
export type StripeConfig = {
  secretKey: string;
  webhookSecret: string;
  /** Stripe.js's key in the browser (the card-entry page, decision 0063): public by design. */
  publishableKey: string;
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
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(
      /^pk_\w+$/,
      'STRIPE_PUBLISHABLE_KEY must be the publishable key (pk_…), never the secret one',
    )
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
 * or renewals would go unheard, and its publishable key, or no card could be entered; otherwise
 * the sandbox. Problems come back one line each.
 */
export function resolveStripeConfig(
  e: StripeEnv,
): { ok: true; config: StripeConfig } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET)
    problems.push('STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY');
  if (!e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET)
    problems.push('STRIPE_SECRET_KEY: required with STRIPE_WEBHOOK_SECRET');
  // Without it no card could be entered (the card-entry page loads Stripe.js with it).
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_PUBLISHABLE_KEY)
    problems.push('STRIPE_PUBLISHABLE_KEY: required with STRIPE_SECRET_KEY');
  if (!e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY)
    problems.push('STRIPE_PUBLISHABLE_KEY: only read with STRIPE_SECRET_KEY');
  if (!e.STRIPE_SECRET_KEY && e.STRIPE_API_BASE)
    problems.push('STRIPE_API_BASE: only read with STRIPE_SECRET_KEY');
  if (problems.length > 0) return { ok: false, problems };
  if (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET || !e.STRIPE_PUBLISHABLE_KEY)
    return { ok: true, config: null };
  return {
    ok: true,
    config: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      publishableKey: e.STRIPE_PUBLISHABLE_KEY,
      apiBase: e.STRIPE_API_BASE,
    },
  };
}
