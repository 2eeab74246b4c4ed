import { lazy, Suspense, useState } from 'react';
import { useToasts } from './toast-store';

const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

/**
 * The Toaster, loaded with the first toast (issue 38: Radix Toast is not
 * needed for the first paint of any page). Once shown it stays mounted, so
 * later toasts and closing animations behave as before. Radix announces each
 * toast through a live region it adds with the toast, so nothing is lost
 * for screen readers by mounting the region late.
 */
export function DeferredToaster() {
  const toasts = useToasts();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
