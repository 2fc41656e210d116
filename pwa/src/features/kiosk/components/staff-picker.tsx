import type { KioskStaffMember } from '@platform/schema/kiosk/kiosk.zod';

/** The organisation's staff who track time, names only: each person taps their own. */
export function StaffPicker({
  staff,
  onPick,
}: {
  staff: KioskStaffMember[];
  onPick: (person: KioskStaffMember) => void;
}) {
  return (
    <section className="kiosk-panel" aria-labelledby="kiosk-pick-heading">
      <h1 id="kiosk-pick-heading">Tap your name</h1>
      {staff.length === 0 ? (
        <p className="kiosk-muted">No one here tracks their time yet.</p>
      ) : (
        <ul className="kiosk-staff" aria-label="Staff">
          {staff.map((person) => (
            <li key={person.userId}>
              <button type="button" className="kiosk-person" onClick={() => onPick(person)}>
                {person.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
