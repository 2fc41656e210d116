export type Notice = { tone: 'error' | 'success'; text: string };

/** What a form says after it was sent: errors interrupt (alert), successes are polite (status). */
export function FormNotice({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  const error = notice.tone === 'error';
  return (
    <p className={error ? 'form-error' : 'form-success'} role={error ? 'alert' : 'status'}>
      {notice.text}
    </p>
  );
}
