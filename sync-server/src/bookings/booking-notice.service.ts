import { brandingPaths } from '@platform/schema/branding/branding.zod';
import { orgFormat } from '@platform/schema/organizations/org-format';
import type { Mailer } from '../adapters/mailer/port.ts';
import type { Notifier } from '../adapters/notifier/port.ts';
import type { Db } from '../db/open-database.ts';
import type { JobPayload } from '../jobs/job-definitions.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { orgLabelOf } from '../families/families.service.ts';
import {
  bookingAudienceOf,
  bookingsWithTimes,
  classTermsOf,
  claimReminders,
} from './bookings.repository.ts';

type Kind = JobPayload<'booking-notice'>['kind'];

/** What each notice says: a subject and a body line for email, a title for push. */
export const bookingNoticeTexts = {
  promoted: (title: string, when: string) => ({
    subject: `You have a place in ${title}`,
    title: 'A place opened up',
    body: `You have a place in ${title} on ${when}, from the waitlist.`,
  }),
  'class-cancelled': (title: string, when: string) => ({
    subject: `${title} on ${when} is cancelled`,
    title: 'Class cancelled',
    body: `${title} on ${when} is cancelled. Any credit it used is back on your punch card.`,
  }),
  'class-moved': (title: string, when: string) => ({
    subject: `${title} has moved`,
    title: 'Class moved',
    body: `${title} now starts on ${when}. Your place is kept; cancel in the app if it no longer suits you.`,
  }),
  refused: (title: string, when: string) => ({
    subject: `${title} on ${when} could not be booked`,
    title: 'Booking not confirmed',
    body: `${title} on ${when} could not be booked. Open the app to see why and join the waitlist.`,
  }),
  reminder: (title: string, when: string) => ({
    subject: `Reminder: ${title} on ${when}`,
    title: 'Coming up',
    body: `${title} starts on ${when}.`,
  }),
} satisfies Record<
  Kind,
  (title: string, when: string) => { subject: string; title: string; body: string }
>;

/**
 * The booking-notice job (issue 16): tells each person — and the guardians who act for them,
 * so a child without an address is told through them — by email and push, as each
 * recipient's notification preferences allow ("bookings"). A booking that no longer says what
 * the notice is about (a promotion cancelled since) is skipped.
 */
export async function sendBookingNotices(
  db: Db,
  ports: { mailer: Mailer; notifier: Notifier; publicUrl: string },
  job: JobPayload<'booking-notice'>,
): Promise<void> {
  const rows = await bookingsWithTimes(db, job.orgId, job.bookingIds);
  const org = (await orgLabelOf(db, job.orgId)) ?? 'your organization';
  const calendar = `${brandingPaths.customerApp(job.orgId)}/my-calendar`;
  for (const { booking, occurrence } of rows) {
    if (!stillTrue(job.kind, booking.status)) continue;
    const { timeZone } = await classTermsOf(db, occurrence);
    const when = orgFormat(timeZone).dateTime(occurrence.startsAt.toISOString());
    const text = bookingNoticeTexts[job.kind](occurrence.title, when);
    const audience = (await bookingAudienceOf(db, booking.customerUserId)).filter(
      (person) => person.wantsBookingNotices,
    );
    const forWhom = (isPerson: boolean) =>
      isPerson ? '' : ` (for ${booking.customerName || 'your child'})`;
    for (const person of audience) {
      if (!person.email) continue;
      await ports.mailer.send({
        orgId: job.orgId,
        to: person.email,
        subject: `${text.subject}${forWhom(person.isPerson)}`,
        text: [
          `${text.body}${forWhom(person.isPerson)}`,
          '',
          `Your bookings with ${org}: ${new URL(calendar, ports.publicUrl).toString()}`,
          '',
          'You get these emails because booking notifications are on in your settings.',
        ].join('\n'),
      });
    }
    if (audience.length)
      await ports.notifier.send({
        orgId: job.orgId,
        userIds: audience.map((person) => person.userId),
        title: text.title,
        body: text.body,
        url: calendar,
      });
  }
}

function stillTrue(kind: Kind, status: string): boolean {
  switch (kind) {
    case 'promoted':
    case 'class-moved':
    case 'reminder':
      return status === 'booked' || status === 'waitlisted';
    case 'class-cancelled':
      return status === 'cancelled';
    case 'refused':
      return status === 'refused';
  }
}

/** How far ahead a reminder goes out. */
export const REMINDER_AHEAD_MS = 24 * 3_600_000;

/**
 * The booking-reminders cron: every booking holding a place on a class starting in the next
 * 24 hours gets one reminder — claimed in the database, so two servers never send two.
 * Answers how many were queued.
 */
export async function queueBookingReminders(
  db: Db,
  jobs: Pick<JobQueue, 'enqueue'>,
  now = new Date(),
): Promise<number> {
  let queued = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const claimed = await claimReminders(
        tx,
        now,
        new Date(now.getTime() + REMINDER_AHEAD_MS),
        500,
      );
      const byOrg = new Map<string, string[]>();
      for (const row of claimed) byOrg.set(row.orgId, [...(byOrg.get(row.orgId) ?? []), row.id]);
      for (const [orgId, bookingIds] of byOrg)
        await jobs.enqueue('booking-notice', { orgId, kind: 'reminder', bookingIds }, { tx });
      return claimed.length;
    });
    queued += batch;
    if (batch < 500) return queued;
  }
}
