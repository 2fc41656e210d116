import type { ReactNode } from 'react';
import { ToastProvider } from '../../components/toast/toast-provider.tsx';
import { BrandingContext, platformBranding } from '../../lib/branding.ts';
import { CurrentUserProvider } from './current-user-provider.tsx';

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <BrandingContext.Provider value={platformBranding}>
      <ToastProvider>
        <CurrentUserProvider>{children}</CurrentUserProvider>
      </ToastProvider>
    </BrandingContext.Provider>
  );
}
