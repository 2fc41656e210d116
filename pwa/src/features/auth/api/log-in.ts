import type { LoginInput } from '@platform/schema/auth/auth.zod';
import { loginMessages } from '@platform/schema/auth/auth.messages';
import { safeRedirectPath } from '@platform/schema/auth/redirect.rules';
import { api, ApiError } from '../../../lib/api.ts';
import { requestErrorMessage } from './request-error-message.ts';

/** spec §7 POST /auth/login (JSON): the answer is the path to open, as text. */
export async function logIn(input: LoginInput): Promise<string> {
  const path = await api<unknown>('/auth/login', { json: input });
  // The server already refuses foreign targets; checking again keeps a bad answer from
  // turning this page into an open redirect.
  return safeRedirectPath(typeof path === 'string' ? path : null, '/dashboard');
}

export type LoginFailure = { title?: string; body: string };

/** spec §8 Login failure; a rate limit and being offline get their own words. */
export function describeLoginFailure(error: unknown): LoginFailure {
  if (error instanceof ApiError && (error.status === 401 || error.status === 400)) {
    return { title: loginMessages.failureTitle, body: loginMessages.failureBody };
  }
  return { body: requestErrorMessage(error) };
}
