import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { useCancelSubscription } from '../api/subscription';

/**
 * Confirms a cancellation. An active subscription ends with its billing
 * period (spec text); a past due one, whose period is unpaid, ends at once
 * (`immediate`).
 */
export function CancelSubscriptionDialog({
  open,
  onOpenChange,
  immediate = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  immediate?: boolean;
}) {
  const [pending, setPending] = useState(false);
  const cancelSubscription = useCancelSubscription();

  async function onConfirm() {
    setPending(true);
    try {
      await cancelSubscription();
      toast({
        title: 'Subscription Cancelled',
        description: 'Your subscription has been cancelled successfully.',
      });
      onOpenChange(false);
    } catch (error) {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to cancel subscription.',
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !pending && onOpenChange(next)}
      title="Cancel Subscription"
      description={
        immediate
          ? 'Are you sure? Your last payment failed, so your subscription will end immediately and you will lose access to premium features now. The unpaid invoice will not be charged again.'
          : 'Are you sure? You will lose access to premium features at the end of your current billing period.'
      }
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            Keep Subscription
          </Button>
          <Button variant="destructive" onClick={onConfirm} busy={pending}>
            {pending ? 'Cancelling...' : 'Yes, Cancel'}
          </Button>
        </>
      }
    />
  );
}
