import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { navigateTo } from '@/lib/browser';
import { createBillingPortalSession } from '../api/subscription';

/**
 * Opens the billing portal the server answers: Stripe's (another site, a
 * full-page navigation) or the simulated one, a page of this app (same
 * origin: the router goes there without reloading).
 */
export function useBillingPortal() {
  const navigate = useNavigate();
  const [opening, setOpening] = useState(false);

  async function open() {
    setOpening(true);
    try {
      const { url } = await createBillingPortalSession();
      const target = new URL(url, window.location.origin);
      if (target.origin === window.location.origin) navigate(target.pathname + target.search + target.hash);
      else navigateTo(target.toString());
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
