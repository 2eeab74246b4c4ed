import { FlaskConical } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { confirmSimulated, type SimulatedOutcome } from '@/lib/simulated-provider';
import type { PaymentFormProps } from './types';

/**
 * The development stand-in for Stripe Elements: no card is entered; the two
 * buttons confirm the payment intent as paid or declined through the server,
 * then follow the same success and failure paths as confirmPayment.
 */
export function SimulatedPaymentForm({
  clientSecret,
  returnPath,
  submitLabel,
  onCancel,
  onSucceeded,
  onFailed,
  onError,
}: PaymentFormProps) {
  const navigate = useNavigate();
  const [processing, setProcessing] = useState<SimulatedOutcome | null>(null);

  async function confirm(outcome: SimulatedOutcome) {
    setProcessing(outcome);
    try {
      const response = await confirmSimulated(clientSecret, outcome);
      if (response.status === 'succeeded') {
        onSucceeded();
        navigate(returnPath);
        return;
      }
      onFailed(response.message);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) onFailed(error.serverMessage);
      else onError();
    }
    setProcessing(null);
  }

  return (
    <div className="payment-form" role="group" aria-label="Payment">
      <div className="test-mode" role="note">
        <FlaskConical size={18} aria-hidden />
        <strong>Test mode — simulated payment, no real card is charged</strong>
      </div>
      <dl className="test-card">
        <div>
          <dt>Card</dt>
          <dd>4242 4242 4242 4242 (test)</dd>
        </div>
        <div>
          <dt>Expiry / CVC</dt>
          <dd>12/34 · 123</dd>
        </div>
      </dl>
      <div className="payment-actions">
        <Button type="button" busy={processing === 'succeeded'} disabled={processing !== null} onClick={() => confirm('succeeded')}>
          {processing === 'succeeded' ? 'Processing...' : submitLabel}
        </Button>
        <Button
          type="button"
          variant="outline"
          busy={processing === 'failed'}
          disabled={processing !== null}
          onClick={() => confirm('failed')}
        >
          {processing === 'failed' ? 'Processing...' : 'Simulate declined payment'}
        </Button>
        {onCancel && (
          <Button type="button" variant="ghost" onClick={onCancel} disabled={processing !== null}>
            Cancel
          </Button>
        )}
      </div>
    </div>
  );
}
