import { useEffect, useRef } from 'react';
import useSWRMutation from 'swr/mutation';

/**
 * The payment session (a client secret) of a page's payment form, as a
 * mutation: `create` is the page's POST (a credit purchase, a
 * subscription). Spec section 7 asks for it on load, once the form can show
 * (`key` turns non-null when the payment provider is ready), so the trigger
 * fires when `key` is first set and once per `key`, even under StrictMode's
 * double effects; nothing else posts, and the answer is never cached or
 * revalidated as a query would be (a second POST is a second PaymentIntent).
 */
export function useCreatePaymentSession<T extends { clientSecret: string }>(
  key: string | null,
  create: () => Promise<T>,
  onError: (error: unknown) => void,
): T | null {
  const latest = useRef({ create, onError });
  latest.current = { create, onError };
  const { trigger, data } = useSWRMutation(`payment-session:${key ?? ''}`, () => latest.current.create());
  const requested = useRef<string | null>(null);

  useEffect(() => {
    if (key === null || requested.current === key) return;
    requested.current = key;
    trigger().catch((error: unknown) => latest.current.onError(error));
  }, [key, trigger]);

  return data ?? null;
}
