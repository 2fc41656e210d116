import type { OrgFormat } from '@platform/schema/organizations/org-format';
import { dayKeyOf } from '@platform/schema/time-tracking/org-calendar';
import { useNow } from '../../../lib/use-now.ts';

/** The time and day on the wall, in the organisation's zone and way of writing them. */
export function KioskClock({ format }: { format: OrgFormat }) {
  const now = useNow(5_000);
  const day = dayKeyOf(now.getTime(), format.region.timeZone);
  return (
    <p className="kiosk-clock">
      <time className="kiosk-clock-time" dateTime={now.toISOString()}>
        {format.time(now.getTime())}
      </time>
      <span className="kiosk-clock-day">{format.day(day)}</span>
    </p>
  );
}
