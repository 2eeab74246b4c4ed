// The icon's own module, not lucide-react's index: the entry chunk must not
// import the index (scripts/first-paint-chunks.ts).
import AlertTriangle from 'lucide-react/icons/triangle-alert';
import type { ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { useLocation } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';

/**
 * What a page that failed while rendering shows instead of a blank screen
 * (a bug, or a page's code that no longer loads after a deploy): what
 * happened and the ways on. Nothing the seller entered elsewhere is lost;
 * the ledger is on the server.
 */
function PageError({ resetErrorBoundary }: FallbackProps) {
  return (
    <main className="not-found" role="alert">
      <Logo size="large" tone="light" />
      <AlertTriangle size={56} className="not-found-icon" aria-hidden />
      <h1 className="not-found-title">Something went wrong</h1>
      <p className="not-found-text">This page could not be shown. Reload it, or go back to the homepage.</p>
      <div className="not-found-actions">
        <Button onClick={() => window.location.reload()}>Reload Page</Button>
        <ButtonLink to={paths.home} variant="outline" onClick={resetErrorBoundary}>
          Return to Homepage
        </ButtonLink>
      </div>
    </main>
  );
}

/** The routes' error boundary: a new path clears it (react-error-boundary). */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary FallbackComponent={PageError} resetKeys={[pathname]} onError={(error) => console.error('page failed:', error)}>
      {children}
    </ErrorBoundary>
  );
}
