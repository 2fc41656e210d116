import type { ReactNode } from 'react';
import { ToastProvider } from '../../components/toast/toast-provider.tsx';
import { BrandingProvider } from './branding-provider.tsx';
import { CurrentUserProvider } from './current-user-provider.tsx';

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <BrandingProvider>
      <ToastProvider>
        <CurrentUserProvider>{children}</CurrentUserProvider>
      </ToastProvider>
    </BrandingProvider>
  );
}
