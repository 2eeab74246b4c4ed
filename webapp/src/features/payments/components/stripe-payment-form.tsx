import { Elements, PaymentElement } from '@stripe/react-stripe-js';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { useStripeConfirm } from '@/hooks/use-stripe-confirm';
import { getStripe } from '@/lib/stripe';
import type { PaymentFormProps } from './types';

function StripeForm({ returnPath, submitLabel, onCancel, onSucceeded, onFailed, onError }: PaymentFormProps) {
  const navigate = useNavigate();
  const { onSubmit, onReady, processing, disabled } = useStripeConfirm({
    confirm: (stripe, elements) =>
      stripe
        .confirmPayment({
          elements,
          confirmParams: { return_url: new URL(returnPath, window.location.origin).toString() },
          redirect: 'if_required',
        })
        .then(({ error, paymentIntent }) => ({ error, status: paymentIntent?.status })),
    onSucceeded: () => {
      onSucceeded();
      navigate(returnPath);
    },
    onFailed,
    onError,
  });

  return (
    <form className="payment-form" onSubmit={onSubmit} aria-label="Payment">
      <PaymentElement onReady={onReady} />
      <div className="payment-actions">
        <Button type="submit" busy={processing} disabled={disabled}>
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
