import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import { icsOf, icsUidOf } from '@platform/schema/schedule/ics';
import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';

/**
 * 'Add to calendar' (issue 16): one booking as an .ics file, made on the device from the
 * replica — it works offline — and handed to the phone's calendar app as a download.
 */
export function AddToCalendar({
  booking,
  occurrence,
  orgName,
}: {
  booking: BookingDoc;
  occurrence: OccurrenceDoc;
  orgName: string;
}) {
  const download = () => {
    const text = icsOf(
      [
        {
          uid: icsUidOf(occurrence.id, booking.customerUserId),
          title: occurrence.title,
          location: occurrence.location,
          description: [
            booking.customerName && `For ${booking.customerName}`,
            occurrence.coachName && `With ${occurrence.coachName}`,
            orgName,
          ]
            .filter(Boolean)
            .join('\n'),
          startsAt: occurrence.startsAt,
          endsAt: occurrence.endsAt,
          cancelled: occurrence.status === 'cancelled',
        },
      ],
      orgName,
    );
    const url = URL.createObjectURL(new Blob([text], { type: 'text/calendar' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${occurrence.title.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'class'}.ics`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <button type="button" className="button button-secondary" onClick={download}>
      Add to calendar<span className="visually-hidden">: {occurrence.title}</span>
    </button>
  );
}
