import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { scheduleMessages } from '@platform/schema/schedule/schedule.zod';
import { FormNotice } from '../../../components/form-notice.tsx';
import { TextField } from '../../../components/form-fields.tsx';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { getBookingSettings, saveBookingSettings } from '../api/schedule.ts';

/** The organisation's cancellation cut-off (server state, not replicated: TanStack Query). */
export function BookingSettingsForm({ orgId }: { orgId: string }) {
  const online = useOnlineStatus();
  const client = useQueryClient();
  const key = ['schedule', orgId, 'settings'];
  const settings = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => getBookingSettings(signal),
    enabled: online,
  });
  const [hours, setHours] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const save = useMutation({
    mutationFn: (cancelCutoffHours: number) => saveBookingSettings({ cancelCutoffHours }),
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      setHours(null);
      setNotice({ tone: 'success', text: 'Cut-off saved; every class time ahead follows it.' });
    },
    onError: (error) =>
      setNotice({ tone: 'error', text: failureText(error, 'Saving the cut-off') }),
  });
  const value = hours ?? (settings.data ? String(settings.data.cancelCutoffHours) : '');
  const valid = /^\d+$/.test(value) && Number(value) <= 168;
  return (
    <section className="schedule-settings" aria-labelledby="booking-rules">
      <h2 id="booking-rules">Booking rules</h2>
      {settings.isPending && online ? (
        <p role="status">Loading…</p>
      ) : (
        <form
          className="form-row"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setNotice(null);
            if (valid) save.mutate(Number(value));
          }}
        >
          <TextField
            label="Customers may cancel until (hours before the start)"
            inputMode="numeric"
            value={value}
            disabled={!online}
            error={value !== '' && !valid ? scheduleMessages.cutoff : undefined}
            onChange={(event) => setHours(event.target.value)}
          />
          <button
            type="submit"
            className="button button-secondary"
            disabled={!online || !valid || save.isPending}
          >
            Save cut-off
          </button>
        </form>
      )}
      <FormNotice notice={notice} />
    </section>
  );
}
