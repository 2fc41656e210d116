/** A dialog's submit button (busy while its request runs) and Cancel. */
export function DialogActions({
  busy,
  label,
  busyLabel,
  onCancel,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  onCancel: () => void;
}) {
  return (
    <div className="button-row">
      <button type="submit" className="button" disabled={busy} aria-busy={busy || undefined}>
        {busy ? busyLabel : label}
      </button>
      <button type="button" className="button button-secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
