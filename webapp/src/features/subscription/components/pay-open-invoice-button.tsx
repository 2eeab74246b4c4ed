import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { normalizeStatus, profileKey, type Profile } from '@/lib/profile';
import { advanceSimulatedCycle } from '../api/simulated-billing';

/**
 * The simulated portal's "Pay Open Invoice": retries a past due
 * subscription's open invoice, paid this time, as Stripe's retry with a
 * new card would. `onDone` refetches what else the page shows.
 */
export function PayOpenInvoiceButton({ onDone }: { onDone?: () => void | Promise<unknown> }) {
  const [pending, setPending] = useState(false);
  const { mutate } = useSWRConfig();

  async function onClick() {
    setPending(true);
    try {
      // Only a past due subscription has an open invoice: a stale page (the
      // invoice paid in another tab) must not end or renew the cycle.
      const fresh = (await mutate(profileKey)) as Profile | undefined;
      if (normalizeStatus(fresh?.subscriptionStatus) !== 'past_due') {
        toast({ title: 'Nothing to Pay', description: 'Your subscription has no open invoice.' });
        return;
      }
      const response = await advanceSimulatedCycle('succeeded');
      await Promise.all([mutate(profileKey), onDone?.()]);
      if (response.status === 'succeeded') {
        toast({
          title: 'Payment Successful',
          description: 'The open invoice is paid. Your subscription is active again.',
          variant: 'success',
        });
      } else {
        toast({
          title: 'Payment Failed',
          description: response.message || 'The open invoice could not be paid.',
          variant: 'destructive',
        });
      }
    } catch (error) {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to pay the open invoice.',
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <Button onClick={() => void onClick()} busy={pending}>
      {pending ? 'Paying...' : 'Pay Open Invoice'}
    </Button>
  );
}
