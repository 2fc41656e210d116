import { createContext, useContext } from 'react';
import { currentUserSchema, type CurrentUser } from '@platform/schema/me/me.zod';
import { answerOf, api, ApiError, NetworkError } from './api.ts';
import { API_ME_CACHE } from './cache-names.ts';

/** What the shell knows about the person using it (GET /api/me). */
export type CurrentUserState =
  | { status: 'loading' }
  | { status: 'signed-in'; user: CurrentUser }
  | { status: 'signed-out' }
  /** The network failed and the service worker had no earlier answer to give. */
  | { status: 'offline' }
  | { status: 'failed'; message: string };

export type CurrentUserValue = CurrentUserState & {
  /** Asks the server again; concurrent calls share one request. Resolves with the new state. */
  refresh: () => Promise<CurrentUserState>;
};

declare global {
  interface Window {
    /** GET /api/me, sent by index.html before the app's scripts arrive; taken once. */
    __earlyMe?: Promise<Response> | undefined;
  }
}

/**
 * The first answer comes from the request index.html sent while the scripts were still
 * loading (the first screen depends on it: one round trip less before it shows); every later
 * one is asked afresh.
 */
function askForCurrentUser(): Promise<CurrentUser> {
  const early = typeof window === 'undefined' ? undefined : window.__earlyMe;
  if (early) {
    window.__earlyMe = undefined;
    return answerOf(early, currentUserSchema);
  }
  return api('/api/me', { schema: currentUserSchema });
}

/**
 * Who is signed in on this device, kept from the first answer of /api/me on (DESIGN.md How data
 * flows 6): a reload without a network opens the app as that person even on the first visit,
 * before any service worker kept a copy. One entry, the account last signed in; removed on
 * sign-out and on a 401.
 */
const IDENTITY_KEY = 'signed-in-identity:v1';

/**
 * Someone has signed in on this device before (kept after sign-out, holds no identity): a
 * signed-out visit to a branded app then opens its sign-in, a first visit its signup.
 */
const SIGNED_IN_BEFORE_KEY = 'signed-in-before:v1';

export function signedInHereBefore(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_BEFORE_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberIdentity(user: CurrentUser): void {
  try {
    localStorage.setItem(SIGNED_IN_BEFORE_KEY, '1');
    localStorage.setItem(IDENTITY_KEY, JSON.stringify(user));
  } catch {
    // Storage full or unavailable: offline reloads fall back to the service worker's copy.
  }
}

function rememberedIdentity(): CurrentUser | null {
  try {
    const parsed = currentUserSchema.safeParse(
      JSON.parse(localStorage.getItem(IDENTITY_KEY) ?? 'null'),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function fetchCurrentUser(): Promise<CurrentUserState> {
  try {
    const user = await askForCurrentUser();
    rememberIdentity(user);
    return { status: 'signed-in', user };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      await forgetCachedUser();
      return { status: 'signed-out' };
    }
    if (error instanceof NetworkError) {
      const kept = rememberedIdentity();
      return kept ? { status: 'signed-in', user: kept } : { status: 'offline' };
    }
    console.error('GET /api/me failed', error);
    return { status: 'failed', message: 'We could not load your account.' };
  }
}

/**
 * Forgets who was signed in on this device — the kept identity and the service worker's copy of
 * /api/me — so a signed-out device never draws the previous person's navigation.
 */
export async function forgetCachedUser(): Promise<void> {
  try {
    localStorage.removeItem(IDENTITY_KEY);
  } catch {
    // Unavailable storage kept nothing.
  }
  try {
    if ('caches' in window) await caches.delete(API_ME_CACHE);
  } catch {
    // Cache storage can be unavailable (private modes); nothing was kept then.
  }
}

export const CurrentUserContext = createContext<CurrentUserValue | null>(null);

export function useCurrentUser(): CurrentUserValue {
  const value = useContext(CurrentUserContext);
  if (!value) throw new Error('useCurrentUser needs <CurrentUserProvider> (app/providers)');
  return value;
}

/** For screens inside a session-only layout, where a signed-in user is guaranteed. */
export function useSignedInUser(): CurrentUser {
  const value = useCurrentUser();
  if (value.status !== 'signed-in')
    throw new Error('useSignedInUser used outside a signed-in layout');
  return value.user;
}
