import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextareaField } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast-store';
import { ApiError, serverMessage } from '@/lib/api-client';
import { cancelSchema, cancelSubscription, type CancelForm, type CancelInput } from '../api/cancel-subscription';

/** Cancels the account's subscription through the payment provider, at the period end or now, with a reason. */
export function CancelDialog({ accountId, onDone }: { accountId: string; onDone: () => Promise<unknown> }) {
  const [open, setOpen] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CancelForm, unknown, CancelInput>({
    resolver: zodResolver(cancelSchema),
    defaultValues: { when: 'periodEnd', reason: '' },
  });

  const openDialog = (next: boolean) => {
    if (next) reset({ when: 'periodEnd', reason: '' });
    setOpen(next);
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await cancelSubscription(accountId, values);
      setOpen(false);
      toast({
        title: answer.status === 'applied' ? 'Subscription cancelled' : 'Cancellation requested',
        description: answer.message,
        variant: 'success',
      });
      await onDone();
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors.reason) setError('reason', { message: error.fieldErrors.reason });
      toast({
        title: 'Cancellation failed',
        description: serverMessage(error) ?? 'Could not reach the server. Please try again.',
        variant: 'destructive',
      });
    }
  });

  return (
    <>
      <Button variant="outline" onClick={() => openDialog(true)}>
        Cancel the subscription
      </Button>
      <Dialog
        open={open}
        onOpenChange={openDialog}
        title="Cancel the subscription"
        description="Stripe cancels it; the account shows it when Stripe confirms, with you and your reason on the timeline."
      >
        <form className="form" onSubmit={onSubmit} noValidate>
          <fieldset className="field">
            <legend className="field-label">When</legend>
            <label>
              <input type="radio" value="periodEnd" {...register('when')} /> At the end of
              the paid period
            </label>
            <label>
              <input type="radio" value="now" {...register('when')} /> Now
            </label>
            {errors.when?.message && (
              <p className="field-error" role="alert">
                {errors.when.message}
              </p>
            )}
          </fieldset>
          <TextareaField label="Reason" rows={3} error={errors.reason} registration={register('reason')} />
          <div className="dialog-footer">
            <Button variant="ghost" onClick={() => openDialog(false)}>
              Keep it
            </Button>
            <Button type="submit" variant="destructive" busy={isSubmitting}>
              {isSubmitting ? 'Cancelling...' : 'Cancel subscription'}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
