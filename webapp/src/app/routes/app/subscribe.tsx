import { Navigate, useNavigate } from 'react-router';
import { useEffect, useState } from 'react';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { PaymentForm } from '@/features/payments/components/payment-form';
import { PaymentGate } from '@/features/payments/components/payment-gate';
import { usePaymentProvider } from '@/features/payments/hooks/use-payment-provider';
import { useCreatePaymentSession } from '@/features/payments/api/create-payment-session';
import { usePlans } from '@/features/credits/api/get-plans';
import { normalizeStatus, useProfile, type SubscriptionStatus } from '@/lib/auth-api/get-profile';
import { useCreateSubscription } from '@/features/subscription/api/subscription';
import { PlanBenefits } from '@/features/subscription/components/plan-benefits';
import { subscriptionPaymentCallbacks } from '@/features/payments/components/subscription-payment-callbacks';
import { serverMessage } from '@/lib/api-client';
import { formatCents } from '@/lib/format';
import { paths } from '@/config/paths';

export default function SubscribeRoute() {
  const { data: profile, error, isLoading, mutate } = useProfile();
  const [paid, setPaid] = useState(false);
  if (error && !profile) return <LoadError what="your subscription" onRetry={() => void mutate()} />;
  if (isLoading || !profile) return <Spinner label="Loading your subscription" />;
  // After this page's own payment the refetched profile says active: that
  // is the new subscriber on the way to /subscribe/success, not a visitor
  // who was subscribed already.
  const status = normalizeStatus(profile.subscriptionStatus);
  if (!paid && !profile.canSubscribe) {
    return <AlreadySubscribed status={status} />;
  }
  return <Subscribe onPaid={() => setPaid(true)} />;
}

/** A subscription already runs: /subscription manages, resumes or pays it. */
const ALREADY = {
  active: { title: 'Subscription Active', description: 'You already have an active subscription.' },
  cancelling: {
    title: 'Subscription Active',
    description: 'Your subscription is still active until the end of its billing period. Resume it instead of subscribing again.',
  },
  past_due: {
    title: 'Payment Past Due',
    description: 'Your last subscription payment failed. Update your payment method to keep your subscription.',
  },
} as const;

function AlreadySubscribed({ status }: { status: SubscriptionStatus }) {
  // The server said a subscription runs; its status names which.
  const message = status in ALREADY ? ALREADY[status as keyof typeof ALREADY] : ALREADY.active;
  useEffect(() => {
    toast({ ...message, variant: 'info' });
  }, [message]);
  return <Navigate to={paths.subscription} replace />;
}

function Subscribe({ onPaid }: { onPaid: () => void }) {
  const navigate = useNavigate();
  const { create, onPaid: refetchPaid } = useCreateSubscription();
  const { data: plans, error: plansError, mutate: refetchPlans } = usePlans();
  // Stripe.js first: no subscription is created for a form that cannot show.
  const provider = usePaymentProvider();
  const session = useCreatePaymentSession(provider.ready ? 'subscription' : null, create, (error) => {
    toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to create subscription.', variant: 'destructive' });
    navigate(paths.dashboard, { replace: true });
  });

  return (
    <div className="page narrow">
      <h1 className="page-title">Subscribe</h1>
      <Card>
        <CardHeader
          title={plans?.plan.name ?? 'Monthly Plan'}
          description={plans ? `${formatCents(plans.plan.priceCents)} per ${plans.plan.interval}` : undefined}
        />
        {plans ? (
            <PlanBenefits features={plans.plan.features} />
          ) : plansError ? (
            <LoadError what="the plan" onRetry={() => void refetchPlans()} />
          ) : (
            <Spinner label="Loading plan" />
          )}
      </Card>
      <Card>
        <CardHeader title="Payment" />
        <PaymentGate provider={provider} onCancel={() => navigate(paths.dashboard)}>
          {session ? (
            <PaymentForm
              clientSecret={session.clientSecret}
              returnPath={paths.subscribeSuccess}
              submitLabel={plans ? `Subscribe for ${formatCents(plans.plan.priceCents)}/${plans.plan.interval}` : 'Subscribe'}
              onCancel={() => navigate(paths.dashboard)}
              {...subscriptionPaymentCallbacks(() => {
                onPaid();
                void refetchPaid();
              })}
            />
          ) : (
            <Spinner label="Preparing payment" />
          )}
        </PaymentGate>
      </Card>
    </div>
  );
}
