import { useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeElements, StripeError } from '@stripe/stripe-js';
import { useState, type FormEvent } from 'react';

/** What a Stripe confirm call answered: its error, or the intent's status. */
export type StripeConfirmation = { error?: StripeError; status?: string };

export type StripeConfirmOptions = {
  /** The Elements confirm call: stripe.confirmPayment (a PaymentIntent) or stripe.confirmSetup (a SetupIntent). */
  confirm: (stripe: Stripe, elements: StripeElements) => Promise<StripeConfirmation>;
  /** The intent succeeded or is processing; the form is done (it stays busy while it goes away). */
  onSucceeded: () => void;
  /** Stripe declined; its message if it gave one. */
  onFailed: (message?: string) => void;
  /** The confirm call itself threw. */
  onError: () => void;
};

/**
 * The Stripe Elements form's confirm-and-report, one for both of its uses
 * (features/payments' PaymentIntent form, features/auto-recharge's
 * SetupIntent card form): waits for the PaymentElement (`onReady`), confirms
 * on submit with `redirect: 'if_required'` and reports the outcome. It lives
 * in the shared hooks/ because features do not import each other.
 */
export function useStripeConfirm({ confirm, onSucceeded, onFailed, onError }: StripeConfirmOptions) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [processing, setProcessing] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setProcessing(true);
    try {
      const { error, status } = await confirm(stripe, elements);
      if (error) onFailed(error.message);
      else if (status === 'succeeded' || status === 'processing') {
        onSucceeded();
        return;
      } else onFailed();
    } catch {
      onError();
    }
    setProcessing(false);
  }

  return {
    onSubmit,
    onReady: () => setReady(true),
    processing,
    /** Submit waits for Stripe.js and the PaymentElement. */
    disabled: !stripe || !elements || !ready,
  };
}
