import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import type { PaymentProviderState } from '../hooks/use-payment-provider';

/**
 * Shows `children` (the payment session's spinner, then the form) once the
 * provider is ready; until then a spinner, or what went wrong with a Try
 * Again and, when given, the page's Cancel.
 */
export function PaymentGate({
  provider,
  onCancel,
  children,
}: {
  provider: PaymentProviderState;
  onCancel?: () => void;
  children: ReactNode;
}) {
  switch (provider.status) {
    case 'ready':
      return children;
    case 'loading':
      return <Spinner label="Loading payment form" />;
    case 'unconfigured':
      return (
        <div className="alert alert-error" role="alert">
          <p>Payments are not configured.</p>
          {onCancel && (
            <div className="payment-actions">
              <Button variant="ghost" size="sm" onClick={onCancel}>
                Cancel
              </Button>
            </div>
          )}
        </div>
      );
  }
  const [title, text] =
    provider.status === 'failed'
      ? [
          'We could not load the secure payment form.',
          'Check your connection, or allow js.stripe.com if a browser extension blocks it, then try again. You have not been charged.',
        ]
      : ['Payments are unavailable right now.', 'Please try again later.'];
  return (
    <div className="alert alert-error" role="alert">
      <h3 className="alert-title">{title}</h3>
      <p>{text}</p>
      <div className="payment-actions">
        <Button variant="outline" size="sm" onClick={provider.retry}>
          Try Again
        </Button>
        {onCancel && (
          <Button variant="ghost" size="sm" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </div>
  );
}
