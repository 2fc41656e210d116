import { Suspense } from 'react';
import { Outlet, Link } from 'react-router';
import { PageLoading } from '../../components/page-loading.tsx';
import { useBranding } from '../../lib/branding.ts';
import { useCurrentUser } from '../../lib/current-user.ts';
import { UserMenu } from '../../features/shell/components/user-menu.tsx';
import { VisitorNav } from '../../features/shell/components/visitor-nav.tsx';

/** Pages anyone may open (documents, not found, the website requests): top navigation. */
export function PublicLayout() {
  const branding = useBranding();
  const current = useCurrentUser();
  return (
    <div className="public-layout">
      <header className="site-header">
        {/* In the banner: page content outside every landmark is what axe's region rule flags. */}
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Link to="/" className="brand">
          {branding.appName}
        </Link>
        {current.status === 'signed-in' ? (
          <div className="top-bar-end">
            <Link to="/dashboard">Dashboard</Link>
            <UserMenu user={current.user} />
          </div>
        ) : (
          <VisitorNav />
        )}
      </header>
      <main id="main" className="public-main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
