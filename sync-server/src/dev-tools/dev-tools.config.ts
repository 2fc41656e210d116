import { z } from 'zod';
import { isLoopbackHost } from './loopback.ts';

/** Environment variables of the development tools; config.ts spreads these into its schema. */
export const devToolsEnvShape = {
  /** 1 turns on /dev/* and /api/dev/* (mailbox, sent notices): development on this machine only. */
  DEV_TOOLS: z.enum(['0', '1'], { message: 'DEV_TOOLS must be 1 (on) or 0 (off)' }).optional(),
};

/**
 * Whether the development pages exist. They hand out password-reset links, so they fail
 * closed: only when DEV_TOOLS=1 says so, with NODE_ENV set to development (or test) — never
 * because NODE_ENV was left unset — and only on a server that listens on loopback and calls
 * itself by a loopback name. Asked for anywhere else, the server refuses to start.
 */
export function resolveDevTools(
  e: { DEV_TOOLS?: '0' | '1' | undefined; HOST: string },
  context: { rawNodeEnv: string | undefined; publicUrl: string },
): { ok: true; enabled: boolean } | { ok: false; problems: string[] } {
  if (e.DEV_TOOLS !== '1') return { ok: true, enabled: false };
  const problems: string[] = [];
  if (context.rawNodeEnv === undefined)
    problems.push('DEV_TOOLS: needs NODE_ENV=development (or test) set explicitly');
  else if (context.rawNodeEnv !== 'development' && context.rawNodeEnv !== 'test') {
    problems.push(`DEV_TOOLS: needs NODE_ENV=development (or test), not ${context.rawNodeEnv}`);
  }
  if (!isLoopbackHost(e.HOST)) {
    problems.push(
      `DEV_TOOLS: needs HOST to be a loopback address (127.0.0.1, ::1 or localhost), not ${e.HOST}`,
    );
  }
  const publicHost = URL.canParse(context.publicUrl)
    ? new URL(context.publicUrl).hostname
    : context.publicUrl;
  if (!isLoopbackHost(publicHost))
    problems.push(`DEV_TOOLS: needs PUBLIC_URL on a loopback host, not ${publicHost}`);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, enabled: true };
}
