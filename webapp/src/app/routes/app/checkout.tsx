import { useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Card, CardHeader } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { parseCredits } from '@/features/credits/api/parse-credits';
import { usePurchaseCredits } from '@/features/credits/api/purchase-credits';
import { PaymentForm } from '@/features/payments/components/payment-form';
import { PaymentGate } from '@/features/payments/components/payment-gate';
import { usePaymentProvider } from '@/features/payments/hooks/use-payment-provider';
import { useCreatePaymentSession } from '@/features/payments/api/create-payment-session';
import { serverMessage } from '@/lib/api-client';
import { formatCents } from '@/lib/format';
import { checkoutSuccessPath, paths } from '@/config/paths';

function Rejected({ title, description }: { title: string; description: string }) {
  useEffect(() => {
    toast({ title, description, variant: 'destructive' });
  }, [title, description]);
  return <Navigate to={paths.dashboard} replace />;
}

export default function CheckoutRoute() {
  const [params] = useSearchParams();
  const parsed = parseCredits(params.get('credits'));
  if (!parsed.ok) return <Rejected title={parsed.title} description={parsed.description} />;
  return <Checkout credits={parsed.credits} />;
}

function Checkout({ credits }: { credits: number }) {
  const navigate = useNavigate();
  const { purchase, onPaid } = usePurchaseCredits();
  // Stripe.js first: no PaymentIntent is created for a form that cannot show.
  const provider = usePaymentProvider();
  const session = useCreatePaymentSession(
    provider.ready ? String(credits) : null,
    () => purchase(credits),
    (error) => {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to create payment session.',
        variant: 'destructive',
      });
      navigate(paths.dashboard, { replace: true });
    },
  );

  // The server prices the purchase (its answer's amountCents): the page
  // does not work the price out again.
  const amountCents = session?.amountCents ?? null;

  return (
    <div className="page narrow">
      <h1 className="page-title">Checkout</h1>
      <Card>
        <CardHeader title="Order Summary" />
        <dl className="summary">
          <div>
            <dt>Credits</dt>
            <dd>{credits.toLocaleString('en-US')}</dd>
          </div>
          <div className="summary-total">
            <dt>Total</dt>
            <dd>{amountCents === null ? '…' : formatCents(amountCents)}</dd>
          </div>
        </dl>
        <p className="muted">Purchased credits never expire. No refunds for unused credits.</p>
      </Card>
      <Card>
        <CardHeader title="Payment" />
        <PaymentGate provider={provider} onCancel={() => navigate(paths.dashboard)}>
          {session ? (
            <PaymentForm
              clientSecret={session.clientSecret}
              returnPath={checkoutSuccessPath(credits, session.amountCents)}
              submitLabel={`Pay ${formatCents(session.amountCents)}`}
              onCancel={() => navigate(paths.dashboard)}
              onSucceeded={() => {
                toast({ title: 'Payment Successful', description: 'Your credits have been added to your account.', variant: 'success' });
                void onPaid();
              }}
              onFailed={(message) =>
                toast({
                  title: 'Payment Failed',
                  description: message || 'Your payment could not be processed.',
                  variant: 'destructive',
                })
              }
              onError={() =>
                toast({ title: 'Payment Error', description: 'An unexpected error occurred.', variant: 'destructive' })
              }
            />
          ) : (
            <Spinner label="Preparing payment" />
          )}
        </PaymentGate>
      </Card>
    </div>
  );
}
