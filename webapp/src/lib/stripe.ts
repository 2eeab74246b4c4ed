import type { Stripe } from '@stripe/stripe-js';

const loaded = new Map<string, Promise<Stripe | null>>();

/**
 * Loads Stripe.js once per publishable key. The module is imported on demand
 * so that nothing of Stripe is in the initial bundle or runs unless
 * /api/config names the "stripe" provider. A load that fails (the script is
 * blocked, the network is down) is forgotten, so the next call tries again.
 */
export function getStripe(publishableKey: string): Promise<Stripe | null> {
  let promise = loaded.get(publishableKey);
  if (!promise) {
    promise = import('@stripe/stripe-js/pure').then(({ loadStripe }) => loadStripe(publishableKey));
    loaded.set(publishableKey, promise);
    const current = promise;
    const forget = () => {
      if (loaded.get(publishableKey) === current) loaded.delete(publishableKey);
    };
    current.then((stripe) => {
      if (!stripe) forget();
    }, forget);
  }
  return promise;
}
