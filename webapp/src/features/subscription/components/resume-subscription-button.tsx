import { useState } from 'react';
import { Button, type ButtonVariant } from '@/components/ui/button';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { useResumeSubscription } from '../api/subscription';

/** Undoes a pending cancellation; the hook refetches the profile (active again). */
export function ResumeSubscriptionButton({ variant = 'primary' }: { variant?: ButtonVariant }) {
  const [pending, setPending] = useState(false);
  const resumeSubscription = useResumeSubscription();

  async function onClick() {
    setPending(true);
    try {
      const { message } = await resumeSubscription();
      toast({
        title: 'Subscription Resumed',
        description: message || 'Your subscription will renew as usual.',
        variant: 'success',
      });
    } catch (error) {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to resume subscription.',
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <Button variant={variant} onClick={() => void onClick()} busy={pending}>
      {pending ? 'Resuming...' : 'Resume Subscription'}
    </Button>
  );
}
