import { useEffect, useRef, useState } from 'react';

/**
 * Requests a payment session (a client secret) once per `key`, even under
 * StrictMode's double effects. `key` null means "do not request".
 */
export function usePaymentSession<T extends { clientSecret: string }>(
  key: string | null,
  create: () => Promise<T>,
  onError: (error: unknown) => void,
): T | null {
  const [session, setSession] = useState<T | null>(null);
  const requested = useRef<string | null>(null);
  const latest = useRef({ create, onError });
  latest.current = { create, onError };

  useEffect(() => {
    if (key === null || requested.current === key) return;
    requested.current = key;
    latest.current.create().then(setSession, (error: unknown) => latest.current.onError(error));
  }, [key]);

  return session;
}
