import { toast } from '@/components/ui/toast-store';
import type { PaymentCallbacks } from './types';

/** The toasts of a subscription payment (spec section 8), shared by /subscription and /subscribe. */
export function subscriptionPaymentCallbacks(afterSuccess?: () => void): PaymentCallbacks {
  return {
    onSucceeded() {
      toast({ title: 'Subscription Successful', description: 'You are now subscribed to our service!', variant: 'success' });
      afterSuccess?.();
    },
    onFailed(message) {
      toast({
        title: 'Subscription Failed',
        description: message || 'Your subscription payment could not be processed.',
        variant: 'destructive',
      });
    },
    onError() {
      toast({ title: 'Subscription Error', description: 'An unexpected error occurred.', variant: 'destructive' });
    },
  };
}
