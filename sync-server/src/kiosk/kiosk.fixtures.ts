import type { FastifyInstance } from 'fastify';
import { KIOSK_REQUEST_HEADER, kioskSchema, type Kiosk } from '@platform/schema/kiosk/kiosk.zod';
import type { Db } from '../db/open-database.ts';
import { addMembership, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import type { Person } from '../testing/sync-fixtures.ts';

/** A staff member of `orgId` holding every claim, freshly signed in (starting a kiosk ends their session). */
export async function newManager(app: FastifyInstance, db: Db, orgId: string): Promise<Person> {
  const user = await insertTestUser(db);
  await addMembership(db, user.id, orgId, 'staff');
  const { jar } = await logInAs(app, user.email ?? '', {
    profileType: 'use-org',
    profileOrgId: orgId,
  });
  return { id: user.id, email: user.email ?? '', jar };
}

export function requestStart(app: FastifyInstance, who: { jar: CookieJar } | null, orgId: string) {
  return app.inject({
    method: 'POST',
    url: '/api/kiosk/start',
    headers: who?.jar.headers() ?? {},
    payload: { orgId },
  });
}

/** A kiosk of `orgId` started by a new manager: its cookie jar, what it answered, and its starter. */
export async function startTestKiosk(app: FastifyInstance, db: Db, orgId: string) {
  const starter = await newManager(app, db, orgId);
  const response = await requestStart(app, starter, orgId);
  if (response.statusCode !== 200)
    throw new Error(`kiosk start failed: ${response.statusCode} ${response.body}`);
  const kiosk: Kiosk = kioskSchema.parse(response.json());
  return { jar: new CookieJar().store(response), kiosk, starter };
}

/** The headers of the kiosk's own requests: its credential and the kiosk header. */
export const asKiosk = (jar: CookieJar) => ({ ...jar.headers(), [KIOSK_REQUEST_HEADER]: '1' });
