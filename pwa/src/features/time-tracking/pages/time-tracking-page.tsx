import { useCallback } from 'react';
import type { ClockAction, ClockState } from '@platform/schema/time-tracking/time-clock.rules';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { ClockStatusCard } from '../components/clock-status-card.tsx';
import { TodayEntries } from '../components/today-entries.tsx';
import { useClockActions } from '../hooks/use-clock-actions.ts';
import { useLocalClock } from '../hooks/use-local-clock.ts';
import { useNow } from '../hooks/use-now.ts';
import { useServerClock } from '../hooks/use-server-clock.ts';
import { timeZoneOf, todayRange, workedMs } from '../time-display.ts';
import '../time-tracking.css';

/** /dashboard/time-tracking: the person's own clock and today's entries (spec §2, §3, §4, §7). */
export function TimeTrackingPage() {
  const user = useSignedInUser();
  // RequireNavAccess lets only org views with a time-tracking claim in, so an org is there.
  const orgId = user.org?.id ?? '';
  const online = useOnlineStatus();
  const server = useServerClock(orgId, online);
  const local = useLocalClock(user.id, orgId);
  const now = useNow();
  const timeZone = timeZoneOf(user);
  const { setState, refetchEntries, markUnreachable } = server;

  const onAnswer = useCallback(
    (_action: ClockAction, state: ClockState) => {
      setState(state);
      // spec §7: clocking out refetches the entries; the other moves change today's list too.
      void refetchEntries();
    },
    [setState, refetchEntries],
  );
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
  const since = todayRange(now).from.getTime();
  const workedToday = (entries ?? []).reduce((sum, entry) => sum + workedMs(entry, now, since), 0);

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
      <TodayEntries entries={entries} failed={server.failed} now={now} timeZone={timeZone} />
    </section>
  );
}
