import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { getStripe } from '@/lib/stripe';
import type { PaymentFormProps } from './types';

function StripeForm({ returnPath, submitLabel, onCancel, onSucceeded, onFailed, onError }: PaymentFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const navigate = useNavigate();
  const [ready, setReady] = useState(false);
  const [processing, setProcessing] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setProcessing(true);
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: new URL(returnPath, window.location.origin).toString() },
        redirect: 'if_required',
      });
      if (error) {
        onFailed(error.message);
      } else if (paymentIntent && (paymentIntent.status === 'succeeded' || paymentIntent.status === 'processing')) {
        onSucceeded();
        navigate(returnPath);
        return;
      } else {
        onFailed();
      }
    } catch {
      onError();
    }
    setProcessing(false);
  }

  return (
    <form className="payment-form" onSubmit={onSubmit} aria-label="Payment">
      <PaymentElement onReady={() => setReady(true)} />
      <div className="payment-actions">
        <Button type="submit" busy={processing} disabled={!stripe || !elements || !ready}>
          {processing ? 'Processing...' : submitLabel}
        </Button>
        {onCancel && (
          <Button type="button" variant="ghost" onClick={onCancel} disabled={processing}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

/** Stripe Elements; this module is loaded only with the "stripe" provider. */
export default function StripePaymentForm(props: PaymentFormProps & { publishableKey: string }) {
  const { publishableKey, ...formProps } = props;
  return (
    <Elements stripe={getStripe(publishableKey)} options={{ clientSecret: props.clientSecret }}>
      <StripeForm {...formProps} />
    </Elements>
  );
}
