import { useState } from 'react';
import {
  defaultWaiverText,
  documentMessages,
  WAIVER_MAX_LENGTH,
  type Waiver,
} from '@platform/schema/organizations/documents.zod';
import { useToast } from '../../../components/toast/toast-context.ts';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import { useSaveWaiver, useWaiver } from '../hooks/use-waiver.ts';

const messageOf = (error: unknown) =>
  error instanceof NetworkError
    ? 'You are offline. Saving the waiver needs a connection.'
    : error instanceof ApiError && error.status === 400
      ? error.message || documentMessages.waiverTooLong
      : 'The waiver could not be saved. Please try again.';

/**
 * The waiver of liability customers agree to when they sign up in the branded app (issue 14):
 * the platform's until the organisation writes its own (claim manage-org-settings).
 */
export function WaiverSettings({ orgId }: { orgId: string }) {
  const waiver = useWaiver(orgId);
  if (waiver.isPending) return <p aria-live="polite">Loading the waiver…</p>;
  if (waiver.isError) return <p role="alert">The waiver could not be loaded.</p>;
  return <WaiverForm orgId={orgId} saved={waiver.data} />;
}

function WaiverForm({ orgId, saved }: { orgId: string; saved: Waiver }) {
  const save = useSaveWaiver(orgId);
  const toast = useToast();
  const [text, setText] = useState(saved.text);
  const submit = (next: string, message: string) =>
    save.mutate(
      { text: next },
      {
        onSuccess: (answer) => {
          setText(answer.text);
          toast.success(message);
        },
      },
    );
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        submit(text, documentMessages.waiverSaved);
      }}
    >
      <p>
        {saved.isDefault
          ? 'Your customers see the platform’s waiver. Write your own to replace it.'
          : 'Your customers see your own waiver when they sign up.'}{' '}
        <a href={`/documents/waiver-of-liability?orgId=${orgId}`} target="_blank" rel="noreferrer">
          See it as customers do
        </a>
      </p>
      <div className="field">
        <label htmlFor="waiver-text">Waiver text</label>
        <textarea
          id="waiver-text"
          rows={10}
          maxLength={WAIVER_MAX_LENGTH}
          value={text}
          aria-describedby="waiver-hint"
          onChange={(event) => setText(event.target.value)}
        />
        <p id="waiver-hint" className="field-hint">
          Leave a blank line between paragraphs. Up to {WAIVER_MAX_LENGTH.toLocaleString('en-US')}{' '}
          characters.
        </p>
      </div>
      {save.isError && (
        <p className="form-error" role="alert">
          {messageOf(save.error)}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save waiver'}
        </button>
        {!saved.isDefault && (
          <button
            type="button"
            className="button button-secondary"
            disabled={save.isPending}
            onClick={() => submit('', documentMessages.waiverReset)}
          >
            Use the platform’s waiver
          </button>
        )}
      </div>
      <details>
        <summary>The platform’s waiver</summary>
        <p className="document-default">{defaultWaiverText}</p>
      </details>
    </form>
  );
}
