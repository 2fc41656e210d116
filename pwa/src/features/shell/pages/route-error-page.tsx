import { isRouteErrorResponse, useRouteError } from 'react-router';

/**
 * The last resort when a screen fails to render or a page's code cannot be loaded (for example
 * offline before it was ever cached). Self-contained: the providers may be what failed.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <main className="page error-page">
      <h1>{notFound ? 'Page not found' : 'Something went wrong'}</h1>
      <p>
        {navigator.onLine
          ? 'This page could not be shown. Reloading usually helps.'
          : 'You are offline, and this page has not been saved on this device yet.'}
      </p>
      <p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload
        </button>{' '}
        <a href="/">Go to the home page</a>
      </p>
    </main>
  );
}
