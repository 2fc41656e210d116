import { and, eq } from 'drizzle-orm';
import { calendarFeeds } from '@platform/schema/db';
import { brandingPaths } from '@platform/schema/branding/branding.zod';
import type { CalendarFeedResponse } from '@platform/schema/schedule/schedule.zod';
import { icsOf } from '@platform/schema/schedule/ics';
import { childrenActedFor } from '../access/act-for.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { familyCalendarEntries } from '../bookings/bookings.service.ts';
import type { Db } from '../db/open-database.ts';
import { orgLabelOf } from '../families/families.service.ts';

/**
 * A customer's private calendar feed (issue 16): one secret URL per person and organisation,
 * listing the family's bookings there — the person's and the children they act for. The token
 * is shown once; only its hash is kept. Making a new link replaces the old; revoking removes it.
 */
export type FeedOwner = { orgId: string; userId: string };

export const feedPathOf = (token: string) => `/ics/${token}.ics`;

export async function calendarFeedOf(db: Db, owner: FeedOwner): Promise<CalendarFeedResponse> {
  const [row] = await db
    .select({ createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.orgId, owner.orgId), eq(calendarFeeds.userId, owner.userId)));
  return { active: Boolean(row), createdAt: row?.createdAt.toISOString() ?? null, url: null };
}

export async function makeCalendarFeed(
  db: Db,
  owner: FeedOwner,
  publicUrl: string,
): Promise<CalendarFeedResponse> {
  const token = newToken();
  const [row] = await db
    .insert(calendarFeeds)
    .values({ orgId: owner.orgId, userId: owner.userId, tokenHash: hashToken(token) })
    .onConflictDoUpdate({
      target: [calendarFeeds.orgId, calendarFeeds.userId],
      set: { tokenHash: hashToken(token), createdAt: new Date() },
    })
    .returning({ createdAt: calendarFeeds.createdAt });
  return {
    active: true,
    createdAt: row?.createdAt.toISOString() ?? null,
    url: new URL(feedPathOf(token), publicUrl).toString(),
  };
}

export async function revokeCalendarFeed(db: Db, owner: FeedOwner): Promise<void> {
  await db
    .delete(calendarFeeds)
    .where(and(eq(calendarFeeds.orgId, owner.orgId), eq(calendarFeeds.userId, owner.userId)));
}

/** The feed's iCalendar text, or null for a token that is not (or no longer) a feed. */
export async function calendarFeedText(
  db: Db,
  token: string,
  publicUrl: string,
  now = new Date(),
): Promise<string | null> {
  const [feed] = await db
    .select()
    .from(calendarFeeds)
    .where(eq(calendarFeeds.tokenHash, hashToken(token)));
  if (!feed) return null;
  // Whom the person acts for today: a guardian link removed since no longer shows the child.
  const family = [feed.userId, ...(await childrenActedFor(db, feed.userId))];
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const entries = await familyCalendarEntries(db, feed.orgId, family, since);
  const calendar = new URL(`${brandingPaths.customerApp(feed.orgId)}/my-calendar`, publicUrl);
  const name = (await orgLabelOf(db, feed.orgId)) ?? 'Bookings';
  return icsOf(
    entries.map((entry) => ({ ...entry, url: calendar.toString() })),
    name,
  );
}
