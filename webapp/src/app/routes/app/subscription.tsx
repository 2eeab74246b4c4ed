import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Faq } from '@/components/ui/faq';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { PaymentForm } from '@/features/payments/components/payment-form';
import { PaymentGate } from '@/features/payments/components/payment-gate';
import { usePaymentProvider } from '@/features/payments/hooks/use-payment-provider';
import { useCreatePaymentSession } from '@/features/payments/api/create-payment-session';
import { usePlans, type Plans } from '@/features/credits/api/get-plans';
import { normalizeStatus, useProfile } from '@/lib/auth-api/get-profile';
import { SubscriptionStatusBadge } from '@/components/subscription-status-badge';
import { useCreateSubscription } from '@/features/subscription/api/subscription';
import { CancelSubscriptionDialog } from '@/features/subscription/components/cancel-subscription-dialog';
import { PlanBenefits } from '@/features/subscription/components/plan-benefits';
import { ResumeSubscriptionButton } from '@/features/subscription/components/resume-subscription-button';
import { useBillingPortal } from '@/features/subscription/hooks/use-billing-portal';
import { subscriptionPaymentCallbacks } from '@/features/payments/components/subscription-payment-callbacks';
import { serverMessage } from '@/lib/api-client';
import { formatCents } from '@/lib/format';
import { BILLING_DATE_FORMAT, formatDate } from '@/lib/dates';
import { paths } from '@/config/paths';

const FAQ = [
  {
    q: 'When am I billed?',
    a: 'Your plan renews monthly on the date you subscribed. The next billing date is shown above.',
  },
  {
    q: 'Do unused monthly credits roll over?',
    a: 'No. Monthly credits expire at the end of each billing cycle; purchased credits never expire.',
  },
  {
    q: 'What happens if I cancel?',
    a: 'You keep premium features until the end of the current billing period. There are no refunds for unused credits.',
  },
  { q: 'Can I buy more credits?', a: 'Yes, from the dashboard with Buy More, at any time.' },
];

export default function SubscriptionRoute() {
  const { data: profile, error, isLoading, mutate: refetchProfile } = useProfile();
  const { data: plans, error: plansError, mutate: refetchPlans } = usePlans();
  const portal = useBillingPortal();
  const [subscribing, setSubscribing] = useState(false);
  const [cancelOpen, setCancelOpen] = useState(false);

  if (error && !profile) return <LoadError what="your subscription" onRetry={() => void refetchProfile()} />;
  if (isLoading || !profile) return <Spinner label="Loading your subscription" />;

  const status = normalizeStatus(profile.subscriptionStatus);
  const subscribable = profile.canSubscribe;
  const endsAt = profile.subscriptionEndsAt ? formatDate(profile.subscriptionEndsAt, BILLING_DATE_FORMAT) : null;

  return (
    <div className="page">
      <h1 className="page-title">Subscription</h1>
      {subscribing && subscribable ? (
        <InlineSubscribe plans={plans} onClose={() => setSubscribing(false)} />
      ) : (
        <Card>
          <CardHeader
            title="Subscription Status"
            action={<SubscriptionStatusBadge status={profile.subscriptionStatus} endsAt={profile.subscriptionEndsAt} />}
          />
          <div className="plan-line">
            <strong>{plans?.plan.name ?? 'Monthly Plan'}</strong>
            {plans && (
              <span>
                {formatCents(plans.plan.priceCents)} / {plans.plan.interval}
              </span>
            )}
          </div>
          {status === 'active' && profile.subscriptionRenewalDate && (
            <p className="muted">
              Next billing date: {formatDate(profile.subscriptionRenewalDate, BILLING_DATE_FORMAT)}
            </p>
          )}
          {status === 'cancelling' && (
            <p className="status-note">
              Your subscription is cancelled and will not renew. Premium access and this billing cycle&apos;s credits last
              until {endsAt ?? 'the end of the current billing period'}. Resume it to keep it renewing as usual.
            </p>
          )}
          {status === 'past_due' && (
            <div className="alert alert-error status-note">
              <p>
                Your last subscription payment failed. Premium access is paused until the open invoice is paid. Update your
                payment method to keep your subscription, or cancel it now.
              </p>
            </div>
          )}
          <div className="actions">
            {status === 'active' && (
              <>
                <Button onClick={portal.open} busy={portal.opening}>
                  Manage Subscription
                </Button>
                <Button variant="destructive" onClick={() => setCancelOpen(true)}>
                  Cancel
                </Button>
              </>
            )}
            {status === 'cancelling' && (
              <>
                <ResumeSubscriptionButton />
                <Button variant="outline" onClick={portal.open} busy={portal.opening}>
                  Manage Subscription
                </Button>
              </>
            )}
            {status === 'past_due' && (
              <>
                <Button onClick={portal.open} busy={portal.opening}>
                  Update Payment Method
                </Button>
                <Button variant="destructive" onClick={() => setCancelOpen(true)}>
                  Cancel
                </Button>
              </>
            )}
            {subscribable && <Button onClick={() => setSubscribing(true)}>Manage Subscription</Button>}
          </div>
        </Card>
      )}

      <div className="grid-2">
        <Card>
          <CardHeader title="Plan Benefits" />
          {plans ? (
            <PlanBenefits features={plans.plan.features} />
          ) : plansError ? (
            <LoadError what="the plan" onRetry={() => void refetchPlans()} />
          ) : (
            <Spinner label="Loading plan" />
          )}
        </Card>
        <Card>
          <CardHeader title="Frequently Asked Questions" />
          <Faq items={FAQ} />
        </Card>
      </div>

      <CancelSubscriptionDialog open={cancelOpen} onOpenChange={setCancelOpen} immediate={status === 'past_due'} />
    </div>
  );
}

/**
 * The inline 'Subscribe to Monthly Plan' form: the payment provider's code
 * loads first, then the subscription is created and its payment form shown.
 */
function InlineSubscribe({ plans, onClose }: { plans: Plans | undefined; onClose: () => void }) {
  const { create, onPaid } = useCreateSubscription();
  const provider = usePaymentProvider();
  const session = useCreatePaymentSession(provider.ready ? 'subscription' : null, create, (error) => {
    toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to set up subscription.', variant: 'destructive' });
    onClose();
  });
  const callbacks = subscriptionPaymentCallbacks(() => {
    onClose();
    void onPaid();
  });

  return (
    <Card>
      <CardHeader
        title="Subscribe to Monthly Plan"
        description={plans ? `${formatCents(plans.plan.priceCents)} per ${plans.plan.interval}` : undefined}
      />
      <PaymentGate provider={provider} onCancel={onClose}>
        {session ? (
          <PaymentForm
            clientSecret={session.clientSecret}
            returnPath={paths.subscription}
            submitLabel="Subscribe"
            onCancel={onClose}
            {...callbacks}
          />
        ) : (
          <Spinner label="Preparing payment" />
        )}
      </PaymentGate>
    </Card>
  );
}
