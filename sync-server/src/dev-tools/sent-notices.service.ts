import { fullName } from '@platform/schema/app/full-name.rules';
import { desc, eq } from 'drizzle-orm';
import { notificationOutbox, users } from '@platform/schema/db';
import type { SentNotice } from '@platform/schema/dev-tools/sent-notices.zod';
import type { Db } from '../db/open-database.ts';

export const SENT_NOTICES_SIZE = 50;

/** What the Notifier recorded, newest first, with whom each notice was for. */
export async function listSentNotices(db: Db): Promise<SentNotice[]> {
  const rows = await db
    .select({
      notice: notificationOutbox,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(notificationOutbox)
    .leftJoin(users, eq(users.id, notificationOutbox.userId))
    .orderBy(desc(notificationOutbox.createdAt), desc(notificationOutbox.id))
    .limit(SENT_NOTICES_SIZE);
  return rows.map(({ notice, email, firstName, lastName }) => ({
    id: notice.id,
    orgId: notice.orgId,
    userId: notice.userId,
    recipient: email ?? (firstName !== null ? fullName({ firstName, lastName: lastName ?? '' }) : null),
    title: notice.title,
    body: notice.body,
    url: notice.url,
    adapter: notice.adapter,
    deviceCount: notice.deviceCount,
    status: notice.status,
    error: notice.error,
    createdAt: notice.createdAt.toISOString(),
  }));
}
