import type { Ref } from 'react';
import { Card } from '@/components/ui/card';
import { useProductName } from '@/lib/app-config';

/** The dashboard's greeting, which needs no account data. */
export function WelcomeCard() {
  const productName = useProductName();
  return (
    <Card className="welcome">
      <h1 className="page-title">Welcome to {productName}</h1>
      <p>Manage your subscription, credits and API key, and download the desktop software.</p>
    </Card>
  );
}

/**
 * A grey card in a card's shape: the skeleton's blocks, and a deferred
 * card's place until it is near the viewport (`deferred`: marked
 * data-deferred, which the browser journeys scroll to) and while its code
 * loads.
 */
export function SkeletonCard({ lines, tall = false, deferred = false, ref }: { lines: number; tall?: boolean; deferred?: boolean; ref?: Ref<HTMLDivElement> }) {
  return (
    <div className="card skeleton-card" aria-hidden ref={ref} data-deferred={deferred || undefined}>
      <span className="skeleton skeleton-title" />
      {tall && <span className="skeleton skeleton-stat" />}
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="skeleton skeleton-line" />
      ))}
    </div>
  );
}

/**
 * While the profile loads (issue 38, item 2): grey blocks in the shape of
 * the cards that follow, under the greeting (shown at once; the dashboard
 * keeps the same element when its data comes), so the page does not jump
 * from a spinner to its content.
 */
export function DashboardSkeleton() {
  return (
    <div role="status" aria-label="Loading your dashboard" className="skeleton-stack">
      <div className="grid-3">
        <SkeletonCard lines={1} tall />
        <SkeletonCard lines={1} tall />
        <SkeletonCard lines={2} />
      </div>
      <SkeletonCard lines={4} />
      <div className="grid-2">
        <SkeletonCard lines={3} />
        <SkeletonCard lines={3} />
      </div>
    </div>
  );
}
