import fc from 'fast-check';
import { z } from 'zod';
import {
  forgotPasswordInputSchema,
  impersonateFormSchema,
  loginInputSchema,
  resetPasswordInputSchema,
  signupDtoSchema,
} from '@platform/schema/auth/auth.zod';
import { googleLoginFormSchema, googleRedirectFormSchema } from '@platform/schema/auth/google.zod';
import { brandingSettingsSchema } from '@platform/schema/branding/branding.zod';
import {
  addCustomerRequestSchema,
  addMetricRequestSchema,
  addNoteRequestSchema,
  crmRedirectQuerySchema,
  rosterSearchQuerySchema,
  setTagsRequestSchema,
} from '@platform/schema/crm/crm.zod';
import {
  attachChildRequestSchema,
  createChildrenRequestSchema,
  guardiansRequestSchema,
  validateChildRequestSchema,
} from '@platform/schema/families/families.zod';
import {
  leaveKioskInputSchema,
  setKioskPinInputSchema,
  startKioskInputSchema,
  verifyPinInputSchema,
} from '@platform/schema/kiosk/kiosk.zod';
import { updateMeAttributesInputSchema } from '@platform/schema/me/me.zod';
import { notificationsRequestSchema } from '@platform/schema/notifications/notifications.zod';
import {
  createOrganizationInputSchema,
  setOrganizationTimezoneInputSchema,
} from '@platform/schema/organizations/organizations.zod';
import { settingsRequestSchema } from '@platform/schema/settings/settings.zod';
import {
  changeMemberInputSchema,
  inviteStaffInputSchema,
  teamInvitationTokenInputSchema,
} from '@platform/schema/team/team.zod';
import { collectionNames, replicatedCollections } from '@platform/schema/sync/collections';
import { pullQuerySchema, withDeleted } from '@platform/schema/sync/sync.zod';
import {
  exportTimeEntriesQuerySchema,
  timeTrackingPeopleQuerySchema,
  timeTrackingRequestSchema,
} from '@platform/schema/time-tracking/time-tracking.zod';
import {
  hostileRawBody,
  hostileString,
  hostileValue,
  percentEncode,
  queryStringOf,
} from './hostile-values.ts';
import type { RouteEntry } from './route-list.ts';
import { arbitraryOf, type ArbitraryOptions } from './schema-arbitrary.ts';

/*
 * What the route fuzzer (app.fuzz.test.ts) sends each route. Routes call `.parse` with their
 * zod schemas in their handlers, so this table names them; a route missing from it still gets
 * arbitrary JSON and hostile bodies, only fewer that pass its validation.
 */

const pushRowsOf = (doc: z.ZodObject) =>
  z
    .array(
      z.object({
        assumedMasterState: withDeleted(doc).nullable().optional(),
        newDocumentState: withDeleted(doc),
      }),
    )
    .max(20);

export const bodySchemas: Record<string, z.ZodType[]> = {
  'POST /auth/login': [loginInputSchema, impersonateFormSchema],
  'POST /auth/login-with-google': [googleLoginFormSchema],
  'POST /auth/external/login/google': [googleRedirectFormSchema],
  'POST /api/auth/create-account': [
    z.object({ action: z.literal('signup'), signupDto: signupDtoSchema }),
    validateChildRequestSchema,
    createChildrenRequestSchema,
    attachChildRequestSchema,
  ],
  'POST /api/auth/forgot-password': [forgotPasswordInputSchema],
  'POST /api/auth/reset-password': [resetPasswordInputSchema],
  'POST /api/me/attributes': [updateMeAttributesInputSchema],
  'POST /api/organizations': [createOrganizationInputSchema],
  'POST /api/organizations/timezone': [setOrganizationTimezoneInputSchema],
  'PUT /api/organizations/:orgId/branding': [brandingSettingsSchema],
  'POST /api/settings': [settingsRequestSchema],
  'POST /api/time-tracking': [timeTrackingRequestSchema],
  'POST /api/notifications': [notificationsRequestSchema],
  'POST /api/guardians': [guardiansRequestSchema],
  'POST /api/kiosk/start': [startKioskInputSchema],
  'POST /api/kiosk/verify-pin': [verifyPinInputSchema],
  'POST /api/kiosk/leave': [leaveKioskInputSchema],
  'PUT /api/kiosk/pin': [setKioskPinInputSchema],
  'POST /api/crm/customers': [addCustomerRequestSchema],
  'PUT /api/crm/customers/:rosterId/tags': [setTagsRequestSchema],
  'POST /api/crm/customers/:rosterId/notes': [addNoteRequestSchema],
  'POST /api/crm/customers/:rosterId/metrics': [addMetricRequestSchema],
  'POST /api/team/invitations': [inviteStaffInputSchema],
  'PUT /api/team/members/:userId': [changeMemberInputSchema],
  'POST /api/team-invitations/preview': [teamInvitationTokenInputSchema],
  'POST /api/team-invitations/accept': [teamInvitationTokenInputSchema],
  'POST /api/team-invitations/decline': [teamInvitationTokenInputSchema],
  'POST /api/sync/:collection/push': collectionNames.map((name) =>
    pushRowsOf(replicatedCollections[name].schema),
  ),
};

export const querySchemas: Record<string, z.ZodType[]> = {
  'GET /api/sync/:collection/pull': [pullQuerySchema],
  'GET /api/time-tracking/people': [timeTrackingPeopleQuerySchema],
  'GET /api/time-tracking/export.csv': [exportTimeEntriesQuerySchema],
  'GET /api/crm/customers': [rosterSearchQuerySchema],
  'GET /api/crm/redirect': [crmRedirectQuerySchema],
};

/** Browser form posts: also sent as application/x-www-form-urlencoded. */
export const formRoutes = new Set([
  'POST /auth/login',
  'POST /auth/login-with-google',
  'POST /auth/external/login/google',
]);
/** The kiosk's own routes answer its credential, not a staff session. */
export const kioskRoutes = new Set([
  'GET /api/kiosk',
  'POST /api/kiosk/verify-pin',
  'POST /api/kiosk/leave',
]);
/** A live stream answers 200 and stays open; its only input is the session. */
export const notFuzzed = new Set(['GET /api/sync/stream']);

export type FuzzRequest = { url: string; contentType?: string; payload?: string | Buffer };

/** Keeps a failing example's report readable when it carries a megabyte of text. */
export function describeRequest(request: FuzzRequest): string {
  const payload = request.payload === undefined ? '' : String(request.payload);
  const cut = (text: string) =>
    text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
  return `${cut(request.url)} [${request.contentType ?? 'no body'}] ${cut(payload)}`;
}

export type FuzzContext = ArbitraryOptions & {
  /** Real values for path parameters, by name (`:rosterId` → an existing roster id). */
  params: Record<string, readonly string[]>;
};

const segmentOf = (context: FuzzContext, name: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(context.params[name] ?? ['x'])) },
    { weight: 1, arbitrary: hostileString.filter((s) => s.length < 2000).map(percentEncode) },
  );

/** Requests for one route: its path with real or hostile parameters, a query, and a body. */
export function requestsFor(route: RouteEntry, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const name = `${route.method} ${route.url}`;
  const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');
  const path = fc
    .tuple(...params.map((param) => segmentOf(context, param)))
    .map((parts) => parts.reduce((url, part, i) => url.replace(`:${params[i]}`, part), route.url));
  const fromSchemas = (schemas: z.ZodType[] | undefined) =>
    schemas?.length ? fc.oneof(...schemas.map((s) => arbitraryOf(s, context))) : hostileValue;
  const query = fc.oneof(
    { weight: 3, arbitrary: fromSchemas(querySchemas[name]) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { maxKeys: 3 }),
    },
  );
  const url = fc.tuple(path, query).map(([p, q]) => `${p}?${queryStringOf(q)}`);
  if (route.method === 'GET') return url.map((u) => ({ url: u }));
  const asJson = (value: unknown) => ({
    contentType: 'application/json',
    payload: JSON.stringify(value) ?? 'null',
  });
  const bodies = [
    { weight: 6, arbitrary: fromSchemas(bodySchemas[name]).map(asJson) },
    { weight: 1, arbitrary: hostileValue.map(asJson) },
    {
      weight: 1,
      arbitrary: hostileRawBody.map((payload) => ({ contentType: 'application/json', payload })),
    },
    {
      weight: formRoutes.has(name) ? 3 : 1,
      arbitrary: fromSchemas(bodySchemas[name]).map((value) => ({
        contentType: 'application/x-www-form-urlencoded',
        payload: queryStringOf(value),
      })),
    },
    {
      weight: 1,
      arbitrary: hostileRawBody.map((payload) => ({
        contentType: 'application/octet-stream',
        payload,
      })),
    },
  ];
  return fc.tuple(url, fc.oneof(...bodies)).map(([u, body]) => ({ url: u, ...body }));
}
