import { AlertTriangle } from 'lucide-react';
import { useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { normalizeStatus, useProfile } from '@/lib/auth-api/get-profile';
import { paths } from '@/config/paths';
import { useBillingPortal } from '../hooks/use-billing-portal';

/**
 * Shown on every signed-in page while the subscription is past due (its
 * renewal payment failed), with the way to fix it: the billing portal. Not
 * on the simulated portal itself, which is where the button leads.
 */
export function PastDueBanner() {
  const { data: profile } = useProfile();
  const { pathname } = useLocation();
  const portal = useBillingPortal();
  if (!profile || normalizeStatus(profile.subscriptionStatus) !== 'past_due') return null;
  if (pathname.toLowerCase().replace(/\/+$/, '') === paths.devBillingPortal) return null;
  return (
    <section className="banner banner-danger" aria-label="Payment past due">
      <AlertTriangle size={20} aria-hidden className="banner-icon" />
      <p className="banner-text">
        Your last subscription payment failed. Update your payment method to keep your subscription.
      </p>
      <Button size="sm" variant="destructive" onClick={portal.open} busy={portal.opening}>
        Update Payment Method
      </Button>
    </section>
  );
}
