import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { usePayOpenInvoice } from '../api/simulated-billing';

/**
 * The simulated portal's "Pay Open Invoice": retries a past due
 * subscription's open invoice, paid this time, as Stripe's retry with a
 * new card would.
 */
export function PayOpenInvoiceButton() {
  const [pending, setPending] = useState(false);
  const payOpenInvoice = usePayOpenInvoice();

  async function onClick() {
    setPending(true);
    try {
      const response = await payOpenInvoice();
      if (response === null) {
        toast({ title: 'Nothing to Pay', description: 'Your subscription has no open invoice.' });
      } else if (response.status === 'succeeded') {
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
