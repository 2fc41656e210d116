import type { KioskStaffMember } from '@platform/schema/kiosk/kiosk.zod';
import type { ClockStatus } from '@platform/schema/time-tracking/time-clock.rules';
import { tileStatusText } from '../kiosk-texts.ts';

/**
 * The organisation's staff who track time: each person taps their own name, which says
 * whether they are in, on break or out (from the kiosk's replica).
 */
export function StaffPicker({
  staff,
  clock,
  onPick,
}: {
  staff: KioskStaffMember[];
  clock: ReadonlyMap<string, ClockStatus>;
  onPick: (person: KioskStaffMember) => void;
}) {
  return (
    <section className="kiosk-panel" aria-labelledby="kiosk-pick-heading">
      <h1 id="kiosk-pick-heading">Tap your name</h1>
      {staff.length === 0 ? (
        <p className="kiosk-muted">No one here tracks their time yet.</p>
      ) : (
        <ul className="kiosk-staff" aria-label="Staff">
          {staff.map((person) => {
            const status = clock.get(person.userId) ?? 'none';
            return (
              <li key={person.userId}>
                <button
                  type="button"
                  className="kiosk-person"
                  data-status={status}
                  // One name for the tile, read as 'Sam Staff, In'.
                  aria-label={`${person.name}, ${tileStatusText(status)}`}
                  onClick={() => onPick(person)}
                >
                  <span className="kiosk-person-name">{person.name}</span>
                  <span className="kiosk-person-status">{tileStatusText(status)}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
