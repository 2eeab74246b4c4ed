import { Elements, PaymentElement } from '@stripe/react-stripe-js';
import { Button } from '@/components/ui/button';
import { useStripeConfirm } from '@/hooks/use-stripe-confirm';
import { getStripe } from '@/lib/stripe';
import { paths } from '@/config/paths';
import type { CardSetupProps } from './card-setup-form';

function StripeSetupForm({ onSaved, onFailed, onCancel }: CardSetupProps) {
  const { onSubmit, onReady, processing, disabled } = useStripeConfirm({
    confirm: (stripe, elements) =>
      stripe
        .confirmSetup({
          elements,
          confirmParams: { return_url: new URL(`${paths.dashboard}#auto-recharge`, window.location.origin).toString() },
          redirect: 'if_required',
        })
        .then(({ error, setupIntent }) => ({ error, status: setupIntent?.status })),
    onSucceeded: onSaved,
    onFailed,
    onError: () => onFailed(),
  });

  return (
    <form className="payment-form" onSubmit={onSubmit} aria-label="Card">
      <PaymentElement onReady={onReady} />
      <div className="payment-actions">
        <Button type="submit" busy={processing} disabled={disabled}>
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
