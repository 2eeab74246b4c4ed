import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { getStripe } from '@/lib/stripe';
import type { CardSetupProps } from './card-setup-form';

function StripeSetupForm({ onSaved, onFailed, onCancel }: CardSetupProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [processing, setProcessing] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setProcessing(true);
    try {
      const { error, setupIntent } = await stripe.confirmSetup({
        elements,
        confirmParams: { return_url: new URL('/dashboard#auto-recharge', window.location.origin).toString() },
        redirect: 'if_required',
      });
      if (error) onFailed(error.message);
      else if (setupIntent && (setupIntent.status === 'succeeded' || setupIntent.status === 'processing')) onSaved();
      else onFailed();
    } catch {
      onFailed();
    }
    setProcessing(false);
  }

  return (
    <form className="payment-form" onSubmit={onSubmit} aria-label="Card">
      <PaymentElement onReady={() => setReady(true)} />
      <div className="payment-actions">
        <Button type="submit" busy={processing} disabled={!stripe || !elements || !ready}>
          {processing ? 'Saving...' : 'Save card'}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel} disabled={processing}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** Stripe Elements confirming the SetupIntent; loaded only with the "stripe" provider. */
export default function StripeCardSetup(props: CardSetupProps & { publishableKey: string }) {
  const { publishableKey, ...formProps } = props;
  return (
    <Elements stripe={getStripe(publishableKey)} options={{ clientSecret: props.clientSecret }}>
      <StripeSetupForm {...formProps} />
    </Elements>
  );
}
