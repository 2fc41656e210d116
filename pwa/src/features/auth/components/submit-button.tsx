export type SubmitState = 'idle' | 'loading' | 'confirmed';

type SubmitButtonProps = {
  state: SubmitState;
  labels: { idle: string; loading: string; confirmed?: string };
};

/** spec §4 submit states: idle, loading (disabled), confirmed (green, stays disabled). */
export function SubmitButton({ state, labels }: SubmitButtonProps) {
  const label =
    state === 'loading'
      ? labels.loading
      : state === 'confirmed'
        ? (labels.confirmed ?? labels.idle)
        : labels.idle;
  return (
    <button
      type="submit"
      className={`auth-button auth-button--primary${state === 'confirmed' ? ' auth-button--confirmed' : ''}`}
      disabled={state !== 'idle'}
      aria-busy={state === 'loading' ? true : undefined}
    >
      {state === 'loading' && <span className="auth-spinner" aria-hidden="true" />}
      {label}
    </button>
  );
}
