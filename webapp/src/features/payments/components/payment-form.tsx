import { lazy, Suspense } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { useAppConfig } from '@/lib/app-config';
import { SimulatedPaymentForm } from './simulated-payment-form';
import type { PaymentFormProps } from './types';

const StripePaymentForm = lazy(() => import('./stripe-payment-form'));

/** The payment form of the provider that /api/config names. */
export function PaymentForm(props: PaymentFormProps) {
  const { data: config, error } = useAppConfig();
  if (error && !config) {
    return (
      <p className="alert alert-error" role="alert">
        Payments are unavailable right now. Please try again later.
      </p>
    );
  }
  if (!config) return <Spinner label="Loading payment form" />;
  if (config.paymentProvider === 'stripe' && config.stripePublishableKey) {
    return (
      <Suspense fallback={<Spinner label="Loading payment form" />}>
        <StripePaymentForm {...props} publishableKey={config.stripePublishableKey} />
      </Suspense>
    );
  }
  if (config.paymentProvider === 'simulated') return <SimulatedPaymentForm {...props} />;
  return (
    <p className="alert alert-error" role="alert">
      Payments are not configured.
    </p>
  );
}
