import '@/styles/staff.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { InputField, TextareaField } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast-store';
import { ApiError, serverMessage } from '@/lib/api-client';
import { createRefund, refundSchema, type RefundForm, type RefundInput } from '../api/create-refund';

const FIELDS = ['paymentId', 'credits', 'reason'] as const;

/**
 * Refunds payment paymentId (a row of the account's payments, whose button
 * reads "Refund" and is named "Refund <paymentId>"), wholly or the price of
 * some of its credits (at most refundableCredits), through the payment
 * provider. One Idempotency-Key per opening of the dialog: trying again
 * after an outage refunds once.
 */
export function RefundDialog({
  accountId,
  paymentId,
  refundableCredits,
  onDone,
}: {
  accountId: string;
  paymentId: string;
  refundableCredits: number;
  onDone: () => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const [key, setKey] = useState('');
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RefundForm, unknown, RefundInput>({
    resolver: zodResolver(refundSchema),
    defaultValues: { paymentId, credits: '', reason: '' },
  });

  const openDialog = (next: boolean) => {
    if (next) {
      setKey(crypto.randomUUID());
      reset({ paymentId, credits: '', reason: '' });
    }
    setOpen(next);
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await createRefund(accountId, values, key);
      setOpen(false);
      toast({
        title: answer.status === 'applied' ? 'Refund recorded' : 'Refund requested',
        description: answer.message,
        variant: 'success',
      });
      await onDone();
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [field, message] of Object.entries(error.fieldErrors)) {
          if ((FIELDS as readonly string[]).includes(field)) setError(field as (typeof FIELDS)[number], { message });
        }
      }
      toast({
        title: 'Refund failed',
        description: serverMessage(error) ?? 'Could not reach the server. Please try again.',
        variant: 'destructive',
      });
    }
  });

  return (
    <>
      <Button variant="outline" onClick={() => openDialog(true)} aria-label={`Refund ${paymentId}`}>
        Refund
      </Button>
      <Dialog
        open={open}
        onOpenChange={openDialog}
        title="Refund a payment"
        description="Stripe refunds the money; the ledger takes the refunded share of the credits back when Stripe confirms it, with you and your reason on the timeline."
      >
        <form className="form" onSubmit={onSubmit} noValidate>
          <InputField
            label="Payment id"
            readOnly
            error={errors.paymentId}
            registration={register('paymentId')}
          />
          <InputField
            label="Credits to refund"
            inputMode="numeric"
            hint={`Refunds the price of this many of its credits (at most ${refundableCredits}); leave empty to refund all that is left.`}
            error={errors.credits}
            registration={register('credits')}
          />
          <TextareaField label="Reason" rows={3} error={errors.reason} registration={register('reason')} />
          <div className="dialog-footer">
            <Button variant="ghost" onClick={() => openDialog(false)}>
              Keep it
            </Button>
            <Button type="submit" variant="destructive" busy={isSubmitting}>
              {isSubmitting ? 'Refunding...' : 'Refund'}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
