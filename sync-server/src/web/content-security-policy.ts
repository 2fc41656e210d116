import type { OutsideService } from '@platform/schema/app/outside-services.rules';

type Sources = { script?: string[]; style?: string[]; frame?: string[]; connect?: string[] };

/** What each outside service needs, as its own documentation lists it. */
const outsideSources: Record<OutsideService, Sources> = {
  // developers.google.com/identity/gsi/web/guides/get-google-api-clientid#content_security_policy
  'google-sign-in': {
    script: ['https://accounts.google.com/gsi/client'],
    style: ['https://accounts.google.com/gsi/style'],
    frame: ['https://accounts.google.com/gsi/'],
    connect: ['https://accounts.google.com/gsi/'],
  },
  // docs.stripe.com/security/guide#content-security-policy — the card-entry page only
  // (schema/src/app/outside-services.rules.ts, decision 0063).
  stripe: {
    script: ['https://js.stripe.com'],
    frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
    connect: ['https://api.stripe.com'],
  },
};

export type PolicyContext = {
  /** Hashes of the shell's inline scripts ('sha256-…'). */
  scriptHashes: readonly string[];
  /** Served over https: ask the browser to upgrade any http subresource. */
  https: boolean;
  /** Origins every page talks to beyond ours (Firebase's, when push goes through it). */
  connect: readonly string[];
  /**
   * The page may frame our own pages: with Stripe, every card form frames the card-entry page
   * (decision 0063). Otherwise no page frames anything of ours.
   */
  framesOwnPages: boolean;
  /** Our own pages may frame this one (the card-entry page); every other page: nobody. */
  framedBySelf: boolean;
};

/**
 * The Content-Security-Policy of a page of the app that uses these outside services (see
 * outside-services.rules.ts: most use none), directive → sources. Scripts only from us (and
 * the shell's inline script, by hash); no plugins, no framing by anyone — but the card-entry
 * page, by our own pages.
 */
export function contentSecurityPolicy(
  services: readonly OutsideService[],
  context: PolicyContext,
): Map<string, string[]> {
  const outside = services.map((service) => outsideSources[service]);
  const extra = (kind: keyof Sources) => outside.flatMap((sources) => sources[kind] ?? []);
  const frames = [...(context.framesOwnPages ? ["'self'"] : []), ...extra('frame')];
  const policy = new Map<string, string[]>([
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...context.scriptHashes, ...extra('script')]],
    ['script-src-attr', ["'none'"]],
    ['style-src', ["'self'", ...extra('style')]],
    // <style> elements also inline: Radix's modal scroll lock (react-remove-scroll) writes one
    // at run time with measured values, which no hash can name, and a per-response nonce cannot
    // live in the service worker's cached shell. Style attributes stay refused (style-src).
    ['style-src-elem', ["'self'", "'unsafe-inline'", ...extra('style')]],
    // data: for images inlined by the build, blob: for files the app makes (an export).
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", ...context.connect, ...extra('connect')]],
    ['frame-src', frames.length > 0 ? frames : ["'none'"]],
    ['worker-src', ["'self'"]],
    ['manifest-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', [context.framedBySelf ? "'self'" : "'none'"]],
  ]);
  if (context.https) policy.set('upgrade-insecure-requests', []);
  return policy;
}
