import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../../components/page-loading.tsx';
import { useBranding } from '../../lib/branding.ts';

/** Sign-in screens: the brand and one centred card (the pages draw their card), no navigation. */
export function AuthLayout() {
  const branding = useBranding();
  return (
    <div className="auth-layout">
      <header>
        <p className="auth-brand">
          <img src={branding.iconSrc} alt="" width={32} height={32} />
          {branding.appName}
        </p>
      </header>
      <main id="main">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
