import { failureText } from '../lib/request-failure.ts';

/** A read that failed: what went wrong (offline says it needs a connection) and Try again. */
export function LoadFailure({
  error,
  what,
  onRetry,
}: {
  error: unknown;
  /** What was being done, as a sentence's subject: 'Loading today’s sales'. */
  what: string;
  onRetry: () => void;
}) {
  return (
    <div className="form-error" role="alert">
      <p>{failureText(error, what)}</p>
      <button type="button" className="button button-secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
