import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormNotice } from '../../../components/form-notice.tsx';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { getCalendarFeed, makeCalendarFeed, revokeCalendarFeed } from '../api/calendar-feed.ts';

/**
 * The family's bookings in the phone's own calendar app: a private link it subscribes to,
 * shown once when made (only its hash is kept), replaced or revoked here. Server state: it
 * needs the network, and says so.
 */
export function CalendarFeed({ orgId }: { orgId: string }) {
  const online = useOnlineStatus();
  const format = useOrgFormat();
  const client = useQueryClient();
  const key = ['calendar-feed', orgId];
  const status = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => getCalendarFeed(signal),
    enabled: online,
  });
  const [url, setUrl] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const make = useMutation({
    mutationFn: makeCalendarFeed,
    onSuccess: (made) => {
      client.setQueryData(key, made);
      setUrl(made.url);
      setNotice({
        tone: 'success',
        text: 'Your calendar link is ready. Any earlier link no longer works.',
      });
    },
    onError: (error) => setNotice({ tone: 'error', text: failureText(error, 'Making the link') }),
  });
  const revoke = useMutation({
    mutationFn: revokeCalendarFeed,
    onSuccess: () => {
      client.setQueryData(key, { active: false, createdAt: null, url: null });
      setUrl(null);
      setNotice({
        tone: 'success',
        text: 'The calendar link is revoked: it stops working at once.',
      });
    },
    onError: (error) => setNotice({ tone: 'error', text: failureText(error, 'Revoking the link') }),
  });
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setNotice({
        tone: 'success',
        text: 'Link copied. Add it to your calendar app as a subscription.',
      });
    } catch {
      setNotice({ tone: 'error', text: 'Copying did not work here: select the link and copy it.' });
    }
  };
  const active = status.data?.active ?? false;
  return (
    <section aria-labelledby="calendar-feed" className="calendar-feed">
      <h2 id="calendar-feed">Calendar feed</h2>
      <p className="field-hint">
        A private link your phone’s calendar subscribes to: your family’s bookings appear there and
        stay current. Anyone with the link can see them — revoke it if it leaks.
      </p>
      {!online ? (
        <p className="field-hint">You are offline: the calendar link needs a connection.</p>
      ) : status.isPending ? (
        <p role="status">Loading…</p>
      ) : (
        <>
          {active && !url && status.data?.createdAt && (
            <p>
              Your link was made on {format.dateTime(status.data.createdAt)}. For security it is
              shown only once; make a new one to see it again.
            </p>
          )}
          {url && (
            <div className="field">
              <label htmlFor="calendar-feed-url">Your calendar link</label>
              <input
                id="calendar-feed-url"
                readOnly
                value={url}
                onFocus={(event) => event.currentTarget.select()}
              />
            </div>
          )}
          <div className="button-row">
            {url && (
              <button type="button" className="button" onClick={() => void copy()}>
                Copy link
              </button>
            )}
            <button
              type="button"
              className="button button-secondary"
              disabled={make.isPending}
              onClick={() => {
                setNotice(null);
                make.mutate();
              }}
            >
              {active ? 'Make a new link' : 'Create link'}
            </button>
            {active && (
              <button
                type="button"
                className="button button-secondary"
                disabled={revoke.isPending}
                onClick={() => {
                  setNotice(null);
                  revoke.mutate();
                }}
              >
                Revoke link
              </button>
            )}
          </div>
        </>
      )}
      <FormNotice notice={notice} />
    </section>
  );
}
