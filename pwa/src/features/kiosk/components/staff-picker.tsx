import type { KioskStaffMember } from '@platform/schema/kiosk/kiosk.zod';
import type { ClockStatus } from '@platform/schema/time-tracking/time-clock.rules';
import { tileStatusText } from '../kiosk-texts.ts';

/**
 * The organisation's staff who track time: each person taps their own name, which says
 * whether they are in, on break or out (from the kiosk's replica) — once the replica has the
 * time entries (`clock` null until then: names only).
 */
export function StaffPicker({
  staff,
  clock,
  onPick,
}: {
  staff: KioskStaffMember[];
  clock: ReadonlyMap<string, ClockStatus> | null;
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
            const status = clock ? (clock.get(person.userId) ?? 'none') : null;
            return (
              <li key={person.userId}>
                <button
                  type="button"
                  className="kiosk-person"
                  data-status={status ?? undefined}
                  onClick={() => onPick(person)}
                >
                  {/* The tile's name is its text, read as 'Sam Staff, In' (the comma is heard,
                      not seen): a label of its own would differ from what is shown (axe). */}
                  <span className="kiosk-person-name">
                    {person.name}
                    {status && <span className="kiosk-person-pause">,</span>}
                  </span>
                  {status && <span className="kiosk-person-status">{tileStatusText(status)}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
