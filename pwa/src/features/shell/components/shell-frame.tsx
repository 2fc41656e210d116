import { Suspense, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useBranding } from '../../../lib/branding.ts';
import { PageLoading } from '../../../components/page-loading.tsx';

/**
 * The signed-in frame: a top bar, a side panel (a drawer on small screens) and the page.
 * `aside` carries the navigation; `collapsed` narrows the panel on wide screens.
 */
export function ShellFrame({
  title,
  userArea,
  aside,
  collapsed = false,
  notice,
  footer,
  children,
}: {
  title: string;
  userArea: ReactNode;
  aside: ReactNode;
  collapsed?: boolean;
  /** A bar above the page (requests waiting for an answer). */
  notice?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const branding = useBranding();
  return (
    <div className="shell" data-collapsed={collapsed || undefined}>
      <header className="top-bar">
        {/* In the banner: page content outside every landmark is what axe's region rule flags. */}
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <button
          type="button"
          className="drawer-toggle"
          aria-expanded={drawerOpen}
          aria-controls="shell-aside"
          onClick={() => setDrawerOpen((open) => !open)}
        >
          Menu
        </button>
        <Link to={branding.homePath} className="brand">
          {branding.logoSrc && (
            <img className="brand-logo" src={branding.logoSrc} alt="" width={32} height={32} />
          )}
          {branding.appName}
        </Link>
        <span className="top-bar-title">{title}</span>
        <div className="top-bar-end">{userArea}</div>
      </header>
      <aside
        id="shell-aside"
        className="shell-aside"
        data-open={drawerOpen || undefined}
        onClick={(event) => {
          if ((event.target as HTMLElement).closest('a')) setDrawerOpen(false);
        }}
      >
        {aside}
      </aside>
      <main id="main" className="shell-main" tabIndex={-1}>
        {notice}
        <Suspense fallback={<PageLoading />}>{children}</Suspense>
      </main>
      {footer}
    </div>
  );
}
