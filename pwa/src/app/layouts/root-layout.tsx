import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../../components/page-loading.tsx';
import { CookieBanner } from '../../features/shell/components/cookie-banner.tsx';
import { InstallBanner } from '../../features/shell/components/install-banner.tsx';
import { OfflineIndicator } from '../../features/shell/components/offline-indicator.tsx';
import { UpdateNotifier } from '../../features/shell/components/update-notifier.tsx';
import { AppProviders } from '../providers/app-providers.tsx';

/** Around every screen: consent, install offer, offline state, update offer, toasts. */
export function RootLayout() {
  return (
    <AppProviders>
      <CookieBanner />
      <InstallBanner />
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
      <OfflineIndicator />
      <UpdateNotifier />
    </AppProviders>
  );
}
