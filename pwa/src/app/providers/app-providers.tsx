import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToastProvider } from '../../components/toast/toast-provider.tsx';
import { BrandingProvider } from './branding-provider.tsx';
import { CurrentUserProvider } from './current-user-provider.tsx';

/**
 * Server state that is not replicated (settings, requests, searches) is cached here (DESIGN.md:
 * TanStack Query). Replicated data never goes through it: screens read the device's replica.
 */
const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, retry: 2, refetchOnWindowFocus: false } },
});

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BrandingProvider>
        <ToastProvider>
          <CurrentUserProvider>{children}</CurrentUserProvider>
        </ToastProvider>
      </BrandingProvider>
    </QueryClientProvider>
  );
}
