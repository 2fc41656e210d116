import { Link } from 'react-router';

/** Any address the app does not know: say so and offer a way back, never a blank screen. */
export function NotFoundPage() {
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </section>
  );
}
