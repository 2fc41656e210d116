import { useMemo, useState } from 'react';

import { useMutation, useQuery } from '@tanstack/react-query';

import {
  appointmentTypeDocSchema,
  type AppointmentTypeDoc,
} from '@platform/schema/schedule/appointments.zod';
import { formatMoney } from '@platform/schema/payments/money';

import { useToast } from '../../../components/toast/toast-context.ts';
import type { AccountDatabase } from '../../../db/database.ts';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { stopOfferingAppointmentType } from '../api/appointments.ts';
import { getCoaches } from '../api/schedule.ts';
import type { Choice } from './class-dialog.tsx';

import { AppointmentTypeDialog } from './appointment-type-dialog.tsx';

/**
 * "Appointment types" below the calendar (issue 16): what customers book one-to-one, listed from
 * the device's replica; new types and changes go to the server and come back by replication.
 */
export function AppointmentTypes({
  db,
  orgId,
  products,
  groups,
}: {
  db: AccountDatabase | null;
  orgId: string;
  products: readonly Choice[];
  groups: readonly Choice[];
}) {
  const online = useOnlineStatus();
  const toast = useToast();
  const typesQuery = useLiveQuery(db, 'appointment-types', { selector: { orgId } });
  const hoursQuery = useLiveQuery(db, 'availability', { selector: { orgId } });
  // The same query as the calendar's coach picker: one request for both.
  const coaches = useQuery({
    queryKey: ['schedule', orgId, 'coaches'],
    queryFn: ({ signal }) => getCoaches(signal),
    enabled: online,
    staleTime: 60_000,
  });
  const [editing, setEditing] = useState<{ type: AppointmentTypeDoc | null } | null>(null);
  const [stopping, setStopping] = useState<string | null>(null);
  const stop = useMutation({
    mutationFn: (type: AppointmentTypeDoc) => stopOfferingAppointmentType(type.id),
    onSuccess: (_, type) => {
      setStopping(null);
      toast.success(`${type.title} is no longer offered.`);
    },
    onError: (error) => toast.error(failureText(error, 'Stopping the appointment type')),
  });

  const types = useMemo(
    () =>
      typesQuery.documents
        .flatMap((doc) => {
          const parsed = appointmentTypeDocSchema.safeParse(doc);
          return parsed.success ? [parsed.data] : [];
        })
        .sort((a, b) => a.title.localeCompare(b.title)),
    [typesQuery.documents],
  );
  const staff: Choice[] = (coaches.data?.coaches ?? []).map((c) => ({
    id: c.userId,
    name: c.name,
  }));
  // Offline the staff list is not at hand; the replicated hours name whoever has some.
  const names = new Map<string, string>([
    ...hoursQuery.documents.map((doc) => [doc.userId, doc.staffName] as [string, string]),
    ...staff.map((s) => [s.id, s.name] as [string, string]),
  ]);
  const newButton = (
    <button
      type="button"
      className="button"
      disabled={!online}
      onClick={() => setEditing({ type: null })}
    >
      New appointment type
    </button>
  );

  return (
    <section className="appointment-types" aria-labelledby="appointment-types-heading">
      <div className="section-header">
        <h2 id="appointment-types-heading">Appointment types</h2>
        {types.length > 0 && newButton}
      </div>
      {!online && (
        <p className="field-hint">
          You are offline: the types below are the ones this device holds. Adding or changing them
          needs a connection.
        </p>
      )}
      {!db || typesQuery.status === 'loading' ? (
        <p role="status">Loading the appointment types…</p>
      ) : types.length === 0 ? (
        <div className="empty-state" role="note">
          <h3>No appointment types yet</h3>
          <p>
            Offer one-to-one time — a massage, a personal training session — that customers book in
            a member of staff’s free hours.
          </p>
          {newButton}
        </div>
      ) : (
        <ul className="appointment-type-list" aria-label="Appointment types">
          {types.map((type) => (
            <li key={type.id} className="appointment-type">
              <h3>{type.title}</h3>
              <p>
                {type.durationMinutes} min ·{' '}
                {type.bufferMinutes ? `${type.bufferMinutes} min buffer` : 'no buffer'} ·{' '}
                {type.priceMinor === null ? 'Free' : formatMoney(type.priceMinor, type.currency)}
                {type.entitlingProductIds.length + type.punchCardGroupIds.length > 0 &&
                  ', or with a membership or punch card'}
              </p>
              {type.location && <p>{type.location}</p>}
              <p>
                Given by{' '}
                {type.staffUserIds
                  .map((id) => names.get(id) ?? 'a former member of staff')
                  .join(', ')}
              </p>
              <div className="button-row">
                <button
                  type="button"
                  className="button button-secondary button-small"
                  aria-label={`Edit ${type.title}`}
                  disabled={!online}
                  onClick={() => setEditing({ type })}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="button button-danger button-small"
                  aria-label={`Stop offering ${type.title}`}
                  disabled={!online}
                  onClick={() => setStopping(type.id)}
                >
                  Stop offering
                </button>
              </div>
              {stopping === type.id && (
                <div className="confirm-box" role="group" aria-label="Confirm stopping">
                  <p>
                    Stop offering {type.title}? Customers can no longer book it; appointments
                    already booked stay.
                  </p>
                  <div className="button-row">
                    <button
                      type="button"
                      className="button button-danger"
                      disabled={stop.isPending || !online}
                      aria-busy={stop.isPending || undefined}
                      onClick={() => stop.mutate(type)}
                    >
                      {stop.isPending ? 'Stopping…' : 'Yes, stop offering it'}
                    </button>
                    <button
                      type="button"
                      className="button button-secondary"
                      disabled={stop.isPending}
                      onClick={() => setStopping(null)}
                    >
                      Keep offering it
                    </button>
                  </div>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <AppointmentTypeDialog
          type={editing.type}
          staff={staff}
          staffLoading={coaches.isPending}
          products={products}
          groups={groups}
          onClose={() => setEditing(null)}
        />
      )}
    </section>
  );
}
