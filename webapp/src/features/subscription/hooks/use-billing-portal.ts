import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { navigateTo } from '@/lib/browser';
import { paths } from '@/config/paths';
import { createBillingPortalSession } from '../api/subscription';

/**
 * Opens the billing portal the server answers: Stripe's (another site, a
 * full-page navigation) or the simulated one, a page of this app (same
 * origin, or the simulated portal's path on any origin: the router goes
 * there without reloading).
 */
export function useBillingPortal() {
  const navigate = useNavigate();
  const [opening, setOpening] = useState(false);

  async function open() {
    setOpening(true);
    try {
      const { url } = await createBillingPortalSession();
      const target = new URL(url, window.location.origin);
      // The simulated portal is a page of this app wherever the server
      // thinks the app lives (APP_BASE_URL may name the API's port while
      // the dev server runs on another).
      if (target.origin === window.location.origin || target.pathname === paths.devBillingPortal) {
        navigate(target.pathname + target.search + target.hash);
      } else navigateTo(target.toString());
    } catch (error) {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to open the billing portal.',
        variant: 'destructive',
      });
    } finally {
      setOpening(false);
    }
  }

  return { open: () => void open(), opening };
}
