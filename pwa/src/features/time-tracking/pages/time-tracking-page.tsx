import { useCallback, useMemo, useState } from 'react';
import { dayKeyOf, dayRange } from '@platform/schema/time-tracking/org-calendar';
import type { ClockAction, ClockState } from '@platform/schema/time-tracking/time-clock.rules';
import { workedMsWithin } from '@platform/schema/time-tracking/time-totals.rules';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { ClockStatusCard } from '../components/clock-status-card.tsx';
import { TimeSheet } from '../components/time-sheet.tsx';
import { TodayEntries } from '../components/today-entries.tsx';
import { useClockActions } from '../hooks/use-clock-actions.ts';
import { useLocalClock } from '../hooks/use-local-clock.ts';
import { useNow } from '../hooks/use-now.ts';
import { useServerClock } from '../hooks/use-server-clock.ts';
import { timeZoneOf } from '../time-display.ts';
import '../time-tracking.css';

/**
 * /dashboard/time-tracking: the person's own clock and today's entries, then the week with
 * totals, corrections, the team view for managers and the payroll export (spec §2, §3, §4,
 * §7). Days are the organisation's, in its time zone.
 */
export function TimeTrackingPage() {
  const user = useSignedInUser();
  // RequireNavAccess lets only org views with a time-tracking claim in, so an org is there.
  const orgId = user.org?.id ?? '';
  const online = useOnlineStatus();
  const now = useNow();
  const timeZone = timeZoneOf(user);
  const todayKey = dayKeyOf(now.getTime(), timeZone);
  const today = useMemo(() => dayRange(todayKey, timeZone), [todayKey, timeZone]);
  const server = useServerClock(orgId, online, today);
  const local = useLocalClock(user.id, orgId, today);
  const [clockMoves, setClockMoves] = useState(0);
  const { setState, refetchEntries, refetchAll, markUnreachable } = server;

  const onAnswer = useCallback(
    (_action: ClockAction, state: ClockState) => {
      setState(state);
      // spec §7: clocking out refetches the entries; the other moves change today's list too.
      void refetchEntries();
      setClockMoves((n) => n + 1);
    },
    [setState, refetchEntries],
  );
  const onEntriesChanged = useCallback(() => void refetchAll(), [refetchAll]);
  const actions = useClockActions({
    orgId,
    userId: user.id,
    local,
    onAnswer,
    onSavedOffline: markUnreachable,
  });

  const offline = !online || server.unreachable;
  const state = offline ? (local.ready ? local.state : null) : server.state;
  const entries = offline ? (local.ready ? local.today : null) : server.entries;
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
        pending={actions.pending}
        offline={offline}
        onAction={(action) => void actions.run(action)}
      />
      <TodayEntries
        entries={entries}
        failed={server.failed}
        now={now}
        today={today}
        timeZone={timeZone}
      />
      <TimeSheet
        user={user}
        orgId={orgId}
        timeZone={timeZone}
        online={online}
        now={now}
        today={todayKey}
        refreshKey={clockMoves}
        onChanged={onEntriesChanged}
      />
    </section>
  );
}
