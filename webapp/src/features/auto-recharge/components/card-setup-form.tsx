import { FlaskConical } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { useAppConfig } from '@/lib/app-config';
import { confirmSimulated, type SimulatedOutcome } from '@/lib/simulated-provider';

const StripeCardSetup = lazy(() => import('./card-setup-stripe'));

export type CardSetupProps = {
  clientSecret: string;
  /** The card is saved (the server records it when the provider reports it). */
  onSaved: () => void;
  onFailed: (message?: string) => void;
  onCancel: () => void;
};

/** The card form of the provider that /api/config names: Stripe Elements, or the simulated provider's labelled form. */
export function CardSetupForm(props: CardSetupProps) {
  const { data: config } = useAppConfig();
  if (!config) return <Spinner label="Loading card form" />;
  if (config.paymentProvider === 'stripe' && config.stripePublishableKey) {
    return (
      <Suspense fallback={<Spinner label="Loading card form" />}>
        <StripeCardSetup {...props} publishableKey={config.stripePublishableKey} />
      </Suspense>
    );
  }
  return <SimulatedCardSetup {...props} />;
}

/** The simulated cards, as Stripe's test cards behave off session. */
const simulatedCards = [
  { outcome: 'succeeded', label: 'Save card 4242 (charges succeed)' },
  { outcome: 'charge_declines', label: 'Save card 0341 (charges are declined)' },
  { outcome: 'requires_authentication', label: 'Save card 3184 (charges need 3-D Secure)' },
  { outcome: 'failed', label: 'Simulate a refused card' },
] as const;

/** Development only: POST /api/dev/payments/confirm with the SetupIntent's client secret. */
function SimulatedCardSetup({ clientSecret, onSaved, onFailed, onCancel }: CardSetupProps) {
  const [busy, setBusy] = useState<string | null>(null);
  async function confirm(outcome: SimulatedOutcome) {
    setBusy(outcome);
    try {
      const r = await confirmSimulated(clientSecret, outcome);
      if (r.status === 'succeeded') onSaved();
      else onFailed(r.message);
    } catch (error) {
      onFailed(error instanceof ApiError ? error.serverMessage : undefined);
    }
    setBusy(null);
  }
  return (
    <div className="payment-form" role="group" aria-label="Card">
      <div className="test-mode" role="note">
        <FlaskConical size={18} aria-hidden />
        <strong>Test mode — simulated card, no real card is saved or charged</strong>
      </div>
      <div className="payment-actions">
        {simulatedCards.map((c) => (
          <Button
            key={c.outcome}
            type="button"
            variant={c.outcome === 'succeeded' ? undefined : 'outline'}
            busy={busy === c.outcome}
            disabled={busy !== null}
            onClick={() => confirm(c.outcome)}
          >
            {c.label}
          </Button>
        ))}
        <Button type="button" variant="ghost" onClick={onCancel} disabled={busy !== null}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
