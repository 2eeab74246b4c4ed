import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Faq } from '@/components/ui/faq';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { PaymentForm } from '@/features/payments/components/payment-form';
import { usePlans } from '@/lib/plans';
import { normalizeStatus, profileKey, useProfile } from '@/lib/profile';
import { SubscriptionStatusBadge } from '@/components/subscription-status-badge';
import { createSubscription } from '@/features/subscription/api/subscription';
import { CancelSubscriptionDialog } from '@/features/subscription/components/cancel-subscription-dialog';
import { PlanBenefits } from '@/features/subscription/components/plan-benefits';
import { subscriptionPaymentCallbacks } from '@/features/payments/components/subscription-payment-callbacks';
import { serverMessage } from '@/lib/api-client';
import { BILLING_DATE_FORMAT, formatCents, formatDate } from '@/lib/format';
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
  const { mutate } = useSWRConfig();
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [cancelOpen, setCancelOpen] = useState(false);

  if (error && !profile) return <LoadError what="your subscription" onRetry={() => void refetchProfile()} />;
  if (isLoading || !profile) return <Spinner label="Loading your subscription" />;

  const status = normalizeStatus(profile.subscriptionStatus);
  const active = status === 'active';

  async function onManage() {
    if (active) {
      toast({
        title: 'Manage Subscription',
        description: "In a real implementation this would open the payment provider's customer portal.",
        variant: 'info',
      });
      return;
    }
    setCreating(true);
    try {
      const response = await createSubscription();
      setClientSecret(response.clientSecret);
    } catch (error) {
      toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to set up subscription.', variant: 'destructive' });
    } finally {
      setCreating(false);
    }
  }

  const callbacks = subscriptionPaymentCallbacks(() => {
    setClientSecret(null);
    void mutate(profileKey);
  });

  return (
    <div className="page">
      <h1 className="page-title">Subscription</h1>
      {clientSecret ? (
        <Card>
          <CardHeader
            title="Subscribe to Monthly Plan"
            description={plans ? `${formatCents(plans.plan.priceCents)} per ${plans.plan.interval}` : undefined}
          />
          <PaymentForm
            clientSecret={clientSecret}
            returnPath={paths.subscription}
            submitLabel="Subscribe"
            onCancel={() => setClientSecret(null)}
            {...callbacks}
          />
        </Card>
      ) : (
        <Card>
          <CardHeader title="Subscription Status" action={<SubscriptionStatusBadge status={profile.subscriptionStatus} />} />
          <div className="plan-line">
            <strong>{plans?.plan.name ?? 'Monthly Plan'}</strong>
            {plans && (
              <span>
                {formatCents(plans.plan.priceCents)} / {plans.plan.interval}
              </span>
            )}
          </div>
          {active && profile.subscriptionRenewalDate && (
            <p className="muted">
              Next billing date: {formatDate(profile.subscriptionRenewalDate, BILLING_DATE_FORMAT)}
            </p>
          )}
          <div className="actions">
            <Button onClick={onManage} busy={creating}>
              Manage Subscription
            </Button>
            {active && (
              <Button variant="destructive" onClick={() => setCancelOpen(true)}>
                Cancel
              </Button>
            )}
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

      <CancelSubscriptionDialog open={cancelOpen} onOpenChange={setCancelOpen} />
    </div>
  );
}
