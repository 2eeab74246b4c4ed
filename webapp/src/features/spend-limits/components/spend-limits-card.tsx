import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { InputField } from '@/components/ui/form-field';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { ApiError, serverMessage } from '@/lib/api-client';
import { liveRefresh } from '@/lib/swr-config';
import { spendLimitsSchema, useSaveSpendLimits, useSpendLimits, type SpendLimits, type SpendLimitsInput } from '../api/spend-limits';

const number = new Intl.NumberFormat('en-US');
const utc = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' });

/** A reset time as the card writes it: "Nov 28, 2026, 12:00 AM UTC". */
export const formatReset = (iso: string) => `${utc.format(new Date(iso))} UTC`;

const asText = (limit: number | null) => (limit === null ? '' : String(limit));

/**
 * The seller's daily and monthly spend limits: what each period spent so far against its limit,
 * a notice while a limit is reached (the desktop client's calls then answer 402
 * spend_limit_reached), and a form to set them; `live` follows the spends without a reload.
 */
export function SpendLimitsCard({ live = false }: { live?: boolean }) {
  const { data, error, mutate } = useSpendLimits(live ? liveRefresh : undefined);
  return (
    <Card>
      <CardHeader
        title="Spend limits"
        description="Cap the credits the desktop software and your API key may spend per day (UTC) and per billing month. Leave a limit empty for none."
      />
      {!data && !error && <Spinner label="Loading spend limits" />}
      {!data && error && <LoadError what="spend limits" onRetry={() => void mutate()} />}
      {data && (
        <>
          <LimitReached limits={data} />
          <dl className="spend-limits-figures">
            <dt>Spent today</dt>
            <dd>{spentOf(data.spentToday, data.dailyCredits, data.dailyResetsAt)}</dd>
            <dt>Spent this billing month</dt>
            <dd>{spentOf(data.spentThisMonth, data.monthlyCredits, data.monthlyResetsAt)}</dd>
          </dl>
          <SpendLimitsForm limits={data} />
        </>
      )}
    </Card>
  );
}

function spentOf(spent: number, limit: number | null, resetsAt: string) {
  return limit === null
    ? `${number.format(spent)} credits (no limit)`
    : `${number.format(spent)} of ${number.format(limit)} credits (resets ${formatReset(resetsAt)})`;
}

/** Says which limit is reached, what was spent, and when spending resumes. */
function LimitReached({ limits }: { limits: SpendLimits }) {
  // When both are reached, spending resumes only when the monthly one resets.
  const reached = limits.monthlyLimitReached
    ? { name: 'Monthly', spent: limits.spentThisMonth, limit: limits.monthlyCredits, resetsAt: limits.monthlyResetsAt, period: 'this billing month' }
    : limits.dailyLimitReached
      ? { name: 'Daily', spent: limits.spentToday, limit: limits.dailyCredits, resetsAt: limits.dailyResetsAt, period: 'today' }
      : null;
  if (!reached || reached.limit === null) return null;
  return (
    <div className="alert alert-warning" role="status" aria-label="Spend limit reached">
      <p>
        {reached.name} spend limit reached: {number.format(reached.spent)} of {number.format(reached.limit)} credits spent{' '}
        {reached.period}. Requests from the desktop software and your API key are refused (spend_limit_reached) until it
        resets on {formatReset(reached.resetsAt)}, unless you raise the limit.
      </p>
    </div>
  );
}

function SpendLimitsForm({ limits }: { limits: SpendLimits }) {
  const save = useSaveSpendLimits();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<SpendLimitsInput>({
    resolver: zodResolver(spendLimitsSchema),
    defaultValues: { dailyCredits: asText(limits.dailyCredits), monthlyCredits: asText(limits.monthlyCredits) },
  });

  // The saved limits, when they change elsewhere, replace an untouched form's values.
  useEffect(() => {
    if (!isDirty) reset({ dailyCredits: asText(limits.dailyCredits), monthlyCredits: asText(limits.monthlyCredits) });
  }, [limits.dailyCredits, limits.monthlyCredits, isDirty, reset]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await save(values);
      reset({ dailyCredits: asText(saved.dailyCredits), monthlyCredits: asText(saved.monthlyCredits) });
      toast({ title: 'Spend limits saved', variant: 'success' });
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      for (const name of ['dailyCredits', 'monthlyCredits'] as const) {
        if (fields[name]) setError(name, { message: fields[name] });
      }
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to save your spend limits. Please try again.',
        variant: 'destructive',
      });
    }
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Spend limits">
      <InputField label="Daily limit (credits)" inputMode="numeric" error={errors.dailyCredits} registration={register('dailyCredits')} />
      <InputField label="Monthly limit (credits)" inputMode="numeric" error={errors.monthlyCredits} registration={register('monthlyCredits')} />
      <Button type="submit" busy={isSubmitting}>
        {isSubmitting ? 'Saving...' : 'Save limits'}
      </Button>
    </form>
  );
}
