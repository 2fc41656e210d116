import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './content-security-policy.ts';

const context = {
  scriptHashes: ["'sha256-abc'"],
  https: false,
  connect: [],
  framesOwnPages: false,
  framedBySelf: false,
};

describe('contentSecurityPolicy', () => {
  it("gives a payments page Stripe's script, frames and API, and nothing of Google's", () => {
    const policy = contentSecurityPolicy(['stripe'], context);
    expect(policy.get('script-src')).toEqual(["'self'", "'sha256-abc'", 'https://js.stripe.com']);
    expect(policy.get('frame-src')).toEqual(['https://js.stripe.com', 'https://hooks.stripe.com']);
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://api.stripe.com']);
    expect([...policy.values()].flat().some((source) => source.includes('google'))).toBe(false);
  });

  it('adds the origins every page talks to (Firebase) to connect-src only', () => {
    const policy = contentSecurityPolicy([], {
      ...context,
      connect: ['https://fcmregistrations.googleapis.com'],
    });
    expect(policy.get('connect-src')).toEqual([
      "'self'",
      'https://fcmregistrations.googleapis.com',
    ]);
    expect(policy.get('script-src')).toEqual(["'self'", "'sha256-abc'"]);
  });

  it('lets our own pages frame the card-entry page and, with Stripe, every page frame ours', () => {
    expect(contentSecurityPolicy([], context).get('frame-ancestors')).toEqual(["'none'"]);
    expect(contentSecurityPolicy([], context).get('frame-src')).toEqual(["'none'"]);
    const entry = contentSecurityPolicy(['stripe'], { ...context, framedBySelf: true });
    expect(entry.get('frame-ancestors')).toEqual(["'self'"]);
    const framing = contentSecurityPolicy([], { ...context, framesOwnPages: true });
    expect(framing.get('frame-src')).toEqual(["'self'"]);
    expect(framing.get('frame-ancestors')).toEqual(["'none'"]);
  });
});
