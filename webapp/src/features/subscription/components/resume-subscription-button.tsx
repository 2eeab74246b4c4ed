import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { Button, type ButtonVariant } from '@/components/ui/button';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { profileKey } from '@/lib/profile';
import { resumeSubscription } from '../api/subscription';

/** Undoes a pending cancellation; the profile is refetched (active again). */
export function ResumeSubscriptionButton({
  variant = 'primary',
  onResumed,
}: {
  variant?: ButtonVariant;
  onResumed?: () => void | Promise<unknown>;
}) {
  const [pending, setPending] = useState(false);
  const { mutate } = useSWRConfig();

  async function onClick() {
    setPending(true);
    try {
      const { message } = await resumeSubscription();
      await Promise.all([mutate(profileKey), onResumed?.()]);
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
