import { useMemo } from 'react';
import { dayKeyOf, dayRange } from '@platform/schema/time-tracking/org-calendar';
import { workedMsWithin } from '@platform/schema/time-tracking/time-totals.rules';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { isSyncReachable, useClockMove } from '../../../sync/use-clock-move.ts';
import { ClockStatusCard } from '../components/clock-status-card.tsx';
import { TimeSheet } from '../components/time-sheet.tsx';
import { TodayEntries } from '../components/today-entries.tsx';
import { useLocalClock } from '../hooks/use-local-clock.ts';
import { useNow } from '../../../lib/use-now.ts';
import { timeZoneOf } from '../time-display.ts';
import '../time-tracking.css';

/**
 * /dashboard/time-tracking: the person's own clock and today's entries, then the week with
 * totals, corrections, the team view for managers and the payroll export (spec §2, §3, §4,
 * §7). Days are the organisation's, in its time zone. Everything shown comes from the time
 * entries on this device; every move is written there and sent by the replication, online or
 * not (DESIGN.md How data flows 6).
 */
export function TimeTrackingPage() {
  const user = useSignedInUser();
  // RequireNavAccess lets only org views with a time-tracking claim in, so an org is there.
  const orgId = user.org?.id ?? '';
  const now = useNow();
  const timeZone = timeZoneOf(user);
  const todayKey = dayKeyOf(now.getTime(), timeZone);
  const today = useMemo(() => dayRange(todayKey, timeZone), [todayKey, timeZone]);
  const { status } = useAccountSync();
  const local = useLocalClock(user.id, orgId, today);
  const clock = useClockMove(local.db, status);
  const state = local.ready ? local.state : null;
  const entries = local.ready ? local.today : null;
  const workedToday = (entries ?? []).reduce(
    (sum, entry) => sum + workedMsWithin(entry, now.getTime(), today.from, today.to),
    0,
  );

  return (
    <section className="page time-tracking">
      <h1>Time Tracking</h1>
      <ClockStatusCard
        state={state}
        workedToday={workedToday}
        timeZone={timeZone}
        pending={clock.pending}
        offline={!isSyncReachable(status)}
        onAction={(action) => {
          if (state) void clock.run({ orgId, userId: user.id }, state, action);
        }}
      />
      <TodayEntries entries={entries} now={now} today={today} timeZone={timeZone} />
      <TimeSheet user={user} orgId={orgId} timeZone={timeZone} now={now} today={todayKey} />
    </section>
  );
}
