import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { DeferredToaster } from '@/components/ui/deferred-toaster';
import { AuthProvider } from '@/lib/auth';
import { swrConfig } from '@/lib/swr-config';

/** Data fetching, session and toasts; each mount gets its own cache. */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <AuthProvider>
        {children}
        <DeferredToaster />
      </AuthProvider>
    </SWRConfig>
  );
}
