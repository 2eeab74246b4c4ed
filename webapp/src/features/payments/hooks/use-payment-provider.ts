import { useCallback, useEffect, useState } from 'react';
import { useAppConfig } from '@/lib/app-config';
import { getStripe } from '@/lib/stripe';

/**
 * Whether the payment form of the provider /api/config names can be shown:
 * - `loading`: the config, or Stripe.js and the Stripe form's code, are on their way;
 * - `ready`: the form can be shown (the simulated provider needs nothing more);
 * - `failed`: Stripe.js (or the form's code) could not be loaded;
 * - `unavailable`: /api/config could not be loaded;
 * - `unconfigured`: no provider the webapp knows.
 * `retry` loads again what failed.
 */
export type PaymentProviderState = {
  status: 'loading' | 'ready' | 'failed' | 'unavailable' | 'unconfigured';
  ready: boolean;
  retry: () => void;
};

type StripeLoad = { key: string; attempt: number; ok: boolean };

/**
 * Loads what the payment form needs before anything asks the server for a
 * payment session: a page calls its create endpoint (a PaymentIntent, a
 * subscription) only once `ready` is true, so a seller whose browser
 * cannot load Stripe.js leaves no unpaid checkout behind.
 */
export function usePaymentProvider(): PaymentProviderState {
  const { data: config, error, mutate } = useAppConfig();
  const [attempt, setAttempt] = useState(0);
  const [load, setLoad] = useState<StripeLoad | null>(null);
  const stripeKey = config?.paymentProvider === 'stripe' ? config.stripePublishableKey : null;

  useEffect(() => {
    if (!stripeKey) return;
    let current = true;
    const done = (ok: boolean) => {
      if (current) setLoad({ key: stripeKey, attempt, ok });
    };
    Promise.all([getStripe(stripeKey), import('../components/stripe-payment-form')]).then(
      ([stripe]) => done(stripe !== null),
      () => done(false),
    );
    return () => {
      current = false;
    };
  }, [stripeKey, attempt]);

  const retry = useCallback(() => {
    if (error && !config) void mutate();
    else setAttempt((n) => n + 1);
  }, [error, config, mutate]);

  let status: PaymentProviderState['status'];
  if (!config) status = error ? 'unavailable' : 'loading';
  else if (config.paymentProvider === 'simulated') status = 'ready';
  else if (stripeKey) {
    const settled = load && load.key === stripeKey && load.attempt === attempt ? load : null;
    status = settled === null ? 'loading' : settled.ok ? 'ready' : 'failed';
  } else status = 'unconfigured';

  return { status, ready: status === 'ready', retry };
}
