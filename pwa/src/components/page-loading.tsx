export function PageLoading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="page-loading" role="status">
      {label}
    </p>
  );
}
