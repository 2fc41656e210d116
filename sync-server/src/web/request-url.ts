/**
 * A request's own path and query, read as the path it is. `new URL(url, base)` would take a
 * request line such as `//x/payments/card-entry` as protocol-relative — host `x`, path
 * `/payments/card-entry` — and give an ordinary page the policy of a listed one (adversarial
 * review, 2026-11-24). The origin-form (`/…`) is prefixed with a base instead of resolved
 * against it; the absolute-form a proxy may send is read as a URL.
 */
export function requestUrlOf(url: string | undefined): URL {
  const raw = url ?? '/';
  if (raw.startsWith('/')) return new URL(`http://local${raw}`);
  try {
    return new URL(raw);
  } catch {
    return new URL('http://local/');
  }
}
