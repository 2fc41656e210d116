import { orgIdQuerySchema } from '@platform/schema/auth/auth.zod';

/** The query parameters the login and signup pages share (spec §2 Authentication). */
export type AuthQuery = {
  redirectTo?: string;
  /** Only a well-formed id counts; anything else is ignored rather than sent to the server. */
  orgId?: string;
  /** The token of an emailed CRM invitation (it claims the invited account at signup). */
  invitation?: string;
  preventOrgFields: boolean;
};

export function readAuthQuery(params: URLSearchParams): AuthQuery {
  const redirectTo = params.get('redirectTo') ?? '';
  const orgId = params.get('orgId') ?? '';
  const invitation = params.get('invitation') ?? '';
  return {
    ...(redirectTo ? { redirectTo } : {}),
    ...(invitation && invitation.length <= 200 ? { invitation } : {}),
    ...(orgIdQuerySchema.safeParse(orgId).success ? { orgId } : {}),
    preventOrgFields: isFlagSet(params.get('preventOrgFields')),
  };
}

/** `?preventOrgFields`, `=1` and `=true` all count; `=false` and `=0` do not. */
function isFlagSet(value: string | null): boolean {
  return value !== null && value !== 'false' && value !== '0';
}

/** A path with the given query values, skipping the empty ones. */
export function withQuery(
  path: string,
  values: Record<string, string | boolean | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === false || value === '') continue;
    params.set(key, value === true ? 'true' : value);
  }
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
