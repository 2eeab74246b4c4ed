import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState, type ComponentType } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { InputField } from '@/components/ui/form-field';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { ApiError, serverMessage } from '@/lib/api-client';
import { centsToDollars, formatCents } from '@/lib/format';
import { liveRefresh } from '@/lib/swr-config';
import {
  autoRechargeSchema,
  openRechargePayment,
  RECHARGE_PACKS,
  removeCard,
  startCardSetup,
  useAutoRecharge,
  useSaveAutoRecharge,
  type AutoRecharge,
  type AutoRechargeInput,
} from '../api/auto-recharge';
import { CardSetupForm } from './card-setup-form';

const number = new Intl.NumberFormat('en-US');

/**
 * The payment form a recharge waiting for 3-D Secure is confirmed with: the payments feature's
 * PaymentForm, passed in by the page (a feature does not import another).
 */
export type RechargePaymentForm = ComponentType<{
  clientSecret: string;
  returnPath: string;
  submitLabel: string;
  onCancel?: () => void;
  onSucceeded: () => void;
  onFailed: (providerMessage?: string) => void;
  onError: () => void;
}>;

const disabledReasons: Record<NonNullable<AutoRecharge['disabledReason']>, string> = {
  failed_charges: 'Auto-recharge turned itself off because the last 3 charges to your card failed. Check or replace your card, then turn it on again.',
  payment_method_removed: 'Auto-recharge is off because the saved card was removed. Save a card to turn it on again.',
};

const inputOf = (v: AutoRecharge): AutoRechargeInput => ({
  enabled: v.enabled,
  thresholdCredits: String(v.thresholdCredits || 100),
  packCredits: String(v.packCredits || 500) as AutoRechargeInput['packCredits'],
  monthlyLimitDollars: centsToDollars(v.monthlyLimitCents || 10_000),
});

/**
 * Auto-recharge: the saved card, the settings (a pack bought by itself when a spend leaves
 * available credits below the threshold, at most the monthly limit), and what is going on;
 * `live` follows the recharges without a reload.
 */
export function AutoRechargeCard({ live = false, paymentForm }: { live?: boolean; paymentForm: RechargePaymentForm }) {
  const { data, error, mutate } = useAutoRecharge(live ? liveRefresh : undefined);
  return (
    <Card>
      <div id="auto-recharge" />
      <CardHeader
        title="Auto-recharge"
        description="Save a card and we buy a credit pack for you when your available credits fall below a threshold, up to a monthly limit."
      />
      {!data && !error && <Spinner label="Loading auto-recharge" />}
      {!data && error && <LoadError what="auto-recharge" onRetry={() => void mutate()} />}
      {data && (
        <>
          <RechargeStatus value={data} paymentForm={paymentForm} onPaid={() => void mutate()} />
          <SavedCard value={data} onChange={() => void mutate()} />
          <AutoRechargeForm value={data} />
        </>
      )}
    </Card>
  );
}

/** A recharge waiting for 3-D Secure: the notice, and the payment form to confirm it. */
function ConfirmRecharge({ PaymentForm, onPaid }: { PaymentForm: RechargePaymentForm; onPaid: () => void }) {
  const [payment, setPayment] = useState<{ clientSecret: string; amountCents: number } | null>(null);
  const [busy, setBusy] = useState(false);
  async function open() {
    setBusy(true);
    try {
      setPayment(await openRechargePayment());
    } catch (error) {
      toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to open the payment.', variant: 'destructive' });
    }
    setBusy(false);
  }
  return (
    <div className="alert alert-warning" role="status" aria-label="Recharge needs your confirmation">
      <p>
        Your bank asks you to confirm the last automatic payment (3-D Secure). No other recharge starts until it is
        confirmed.
      </p>
      {payment ? (
        <PaymentForm
          clientSecret={payment.clientSecret}
          returnPath="/dashboard"
          submitLabel={`Pay ${formatCents(payment.amountCents)}`}
          onCancel={() => setPayment(null)}
          onSucceeded={() => {
            setPayment(null);
            toast({ title: 'Payment Successful', description: 'Your credits have been added to your account.', variant: 'success' });
            onPaid();
          }}
          onFailed={(message) => toast({ title: 'Payment failed', description: message ?? 'The payment was declined.', variant: 'destructive' })}
          onError={() => toast({ title: 'Error', description: 'The payment could not be completed.', variant: 'destructive' })}
        />
      ) : (
        <Button type="button" busy={busy} onClick={() => void open()}>
          Confirm payment
        </Button>
      )}
    </div>
  );
}

function RechargeStatus({ value, paymentForm, onPaid }: { value: AutoRecharge; paymentForm: RechargePaymentForm; onPaid: () => void }) {
  return (
    <>
      {value.disabledReason && (
        <div className="alert alert-warning" role="status" aria-label="Auto-recharge turned off">
          <p>{disabledReasons[value.disabledReason]}</p>
        </div>
      )}
      {value.needsAuthentication && <ConfirmRecharge PaymentForm={paymentForm} onPaid={onPaid} />}
      {value.rechargeInFlight && (
        <p className="muted" role="status" aria-label="Recharge in progress">
          A recharge of {number.format(value.packCredits)} credits is being charged.
        </p>
      )}
      <dl className="spend-limits-figures">
        <dt>Recharged this month</dt>
        <dd>
          {formatCents(value.rechargedThisMonthCents)}
          {value.monthlyLimitCents > 0 && ` of ${formatCents(value.monthlyLimitCents)}`}
        </dd>
      </dl>
    </>
  );
}

function SavedCard({ value, onChange }: { value: AutoRecharge; onChange: () => void }) {
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start() {
    setBusy(true);
    try {
      setClientSecret((await startCardSetup()).clientSecret);
    } catch (error) {
      toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to start saving a card.', variant: 'destructive' });
    }
    setBusy(false);
  }

  async function remove() {
    setBusy(true);
    try {
      await removeCard();
      toast({ title: 'Card removed', variant: 'success' });
      onChange();
    } catch (error) {
      toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to remove the card.', variant: 'destructive' });
    }
    setBusy(false);
  }

  if (clientSecret) {
    return (
      <CardSetupForm
        clientSecret={clientSecret}
        onSaved={() => {
          setClientSecret(null);
          toast({ title: 'Card saved', variant: 'success' });
          onChange();
        }}
        onFailed={(message) => {
          setClientSecret(null);
          toast({ title: 'Card not saved', description: message ?? 'The card was refused.', variant: 'destructive' });
        }}
        onCancel={() => setClientSecret(null)}
      />
    );
  }
  return (
    <div className="saved-card" aria-label="Saved card" role="group">
      {value.paymentMethod ? (
        <p>
          Card: <strong>{value.paymentMethod.brand}</strong> ending in <strong>{value.paymentMethod.last4}</strong>
        </p>
      ) : (
        <p className="muted">No card saved.</p>
      )}
      <div className="payment-actions">
        <Button type="button" variant="outline" busy={busy} onClick={() => void start()}>
          {value.paymentMethod ? 'Replace card' : 'Save a card'}
        </Button>
        {value.paymentMethod && (
          <Button type="button" variant="ghost" disabled={busy} onClick={() => void remove()}>
            Remove card
          </Button>
        )}
      </div>
    </div>
  );
}

function AutoRechargeForm({ value }: { value: AutoRecharge }) {
  const save = useSaveAutoRecharge();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<AutoRechargeInput>({ resolver: zodResolver(autoRechargeSchema), defaultValues: inputOf(value) });

  useEffect(() => {
    if (!isDirty) reset(inputOf(value));
  }, [value, isDirty, reset]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await save(values);
      reset(inputOf(saved));
      toast({ title: 'Auto-recharge saved', variant: 'success' });
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      if (fields.thresholdCredits) setError('thresholdCredits', { message: fields.thresholdCredits });
      if (fields.packCredits) setError('packCredits', { message: fields.packCredits });
      if (fields.monthlyLimitCents) setError('monthlyLimitDollars', { message: fields.monthlyLimitCents });
      toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to save auto-recharge. Please try again.', variant: 'destructive' });
    }
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Auto-recharge">
      <div className="field">
        <label className="field-label">
          <input type="checkbox" {...register('enabled')} /> Recharge automatically
        </label>
      </div>
      <InputField label="When available credits fall below" inputMode="numeric" error={errors.thresholdCredits} registration={register('thresholdCredits')} />
      <div className="field">
        <label className="field-label" htmlFor="recharge-pack">
          Buy this pack
        </label>
        <select id="recharge-pack" className="input" {...register('packCredits')}>
          {RECHARGE_PACKS.map((p) => (
            <option key={p} value={String(p)}>
              {number.format(p)} credits
            </option>
          ))}
        </select>
        {errors.packCredits?.message && (
          <p className="field-error" role="alert">
            {errors.packCredits.message}
          </p>
        )}
      </div>
      <InputField label="Monthly limit (USD)" inputMode="decimal" error={errors.monthlyLimitDollars} registration={register('monthlyLimitDollars')} />
      <Button type="submit" busy={isSubmitting}>
        {isSubmitting ? 'Saving...' : 'Save auto-recharge'}
      </Button>
    </form>
  );
}
