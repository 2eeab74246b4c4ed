import { zodResolver } from '@hookform/resolvers/zod';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { InputField, TextareaField } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast-store';
import { ApiError, serverMessage } from '@/lib/api-client';
import {
  adjustmentSchema,
  createAdjustment,
  type AdjustmentForm as AdjustmentFormValues,
  type AdjustmentInput,
} from '../api/create-adjustment';
import { formatCredits } from '@/lib/format';

/**
 * Grants or removes credits on the account as the signed-in staff member.
 * onRecorded reloads what the adjustment changed (the page owns those queries).
 *
 * Each adjustment carries an Idempotency-Key made when the form is filled:
 * a double click, or a retry after a failure or a lost answer, sends the
 * same key and the server grants once; a recorded adjustment, or changed
 * credits or reason, gets a new key.
 */
export function AdjustmentForm({ accountId, onRecorded }: { accountId: string; onRecorded: () => Promise<unknown> }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AdjustmentFormValues, unknown, AdjustmentInput>({
    resolver: zodResolver(adjustmentSchema),
    defaultValues: { credits: '', reason: '' },
  });

  const attempt = useRef<{ key: string; sent: string } | null>(null);

  const onSubmit = handleSubmit(async (values) => {
    const sent = JSON.stringify(values);
    if (attempt.current?.sent !== sent) attempt.current = { key: crypto.randomUUID(), sent };
    try {
      const { balance } = await createAdjustment(accountId, values, attempt.current.key);
      attempt.current = null;
      reset();
      toast({
        title: 'Adjustment recorded',
        description: `The balance is now ${formatCredits(balance)} credits.`,
        variant: 'success',
      });
      await onRecorded();
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [field, message] of Object.entries(error.fieldErrors)) {
          if (field === 'credits' || field === 'reason') setError(field, { message });
        }
      }
      toast({
        title: 'Adjustment failed',
        description: serverMessage(error) ?? 'Could not record the adjustment. Please try again.',
        variant: 'destructive',
      });
    }
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <InputField
        label="Credits"
        type="number"
        step={1}
        hint="A positive number grants credits; a negative one removes them (never below 0)."
        error={errors.credits}
        registration={register('credits')}
      />
      <TextareaField label="Reason" rows={3} error={errors.reason} registration={register('reason')} />
      <div>
        <Button type="submit" busy={isSubmitting}>
          {isSubmitting ? 'Recording...' : 'Record adjustment'}
        </Button>
      </div>
    </form>
  );
}
