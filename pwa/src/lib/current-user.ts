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

export async function fetchCurrentUser(): Promise<CurrentUserState> {
  try {
    return { status: 'signed-in', user: await askForCurrentUser() };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { status: 'signed-out' };
    if (error instanceof NetworkError) return { status: 'offline' };
    console.error('GET /api/me failed', error);
    return { status: 'failed', message: 'We could not load your account.' };
  }
}

/**
 * Forgets the copy of /api/me the service worker keeps for offline use, so a signed-out
 * device never draws the previous person's navigation.
 */
export async function forgetCachedUser(): Promise<void> {
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
