import { FlaskConical } from 'lucide-react';
import { useState } from 'react';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { SubscriptionStatusBadge } from '@/components/subscription-status-badge';
import { CancelSubscriptionDialog } from '@/features/subscription/components/cancel-subscription-dialog';
import { PayOpenInvoiceButton } from '@/features/subscription/components/pay-open-invoice-button';
import { ResumeSubscriptionButton } from '@/features/subscription/components/resume-subscription-button';
import { useTransactions } from '@/features/transactions/api/get-transactions';
import { TransactionsTable } from '@/features/transactions/components/transactions-table';
import { BILLING_DATE_FORMAT, formatDate } from '@/lib/dates';
import { normalizeStatus, useProfile } from '@/lib/auth-api/get-profile';
import { paths } from '@/config/paths';

/**
 * Development only: what POST /api/subscription/portal answers with the
 * simulated provider, in place of Stripe's customer portal. It offers what
 * Stripe's would for the subscription's state, through the seller's own
 * routes and the simulated provider's (paying the open invoice).
 */
export default function BillingPortalRoute() {
  const { data: profile, error, mutate: refetchProfile } = useProfile();
  const transactions = useTransactions();
  const [cancelOpen, setCancelOpen] = useState(false);

  if (error && !profile) return <LoadError what="your billing details" onRetry={() => void refetchProfile()} />;
  if (!profile) return <Spinner label="Loading your billing details" />;

  const status = normalizeStatus(profile.subscriptionStatus);
  const refetchTransactions = () => transactions.mutate();

  return (
    <div className="page narrow">
      <h1 className="page-title">Simulated Billing Portal</h1>
      <div className="test-mode" role="note">
        <FlaskConical size={18} aria-hidden />
        <strong>Development only — stands in for Stripe&apos;s customer portal. No real card is charged.</strong>
      </div>

      <Card>
        <CardHeader
          title="Current Subscription"
          action={<SubscriptionStatusBadge status={profile.subscriptionStatus} endsAt={profile.subscriptionEndsAt} />}
        />
        {status === 'active' && profile.subscriptionRenewalDate && (
          <p className="muted">Renews on {formatDate(profile.subscriptionRenewalDate, BILLING_DATE_FORMAT)}</p>
        )}
        {status === 'cancelling' && (
          <p className="muted">Cancelled at the end of the billing period: it will not renew.</p>
        )}
        {status === 'past_due' && (
          <div className="alert alert-error">
            <p>The last invoice could not be paid. Pay it with the test card to make the subscription active again.</p>
          </div>
        )}
        {(status === 'inactive' || status === 'cancelled') && <p className="muted">No subscription is running.</p>}
        <div className="actions">
          {status === 'past_due' && <PayOpenInvoiceButton />}
          {status === 'cancelling' && <ResumeSubscriptionButton />}
          {(status === 'active' || status === 'past_due') && (
            <Button variant="destructive" onClick={() => setCancelOpen(true)}>
              Cancel Subscription
            </Button>
          )}
          <ButtonLink to={paths.subscription} variant="outline">
            Return to Subscription
          </ButtonLink>
        </div>
      </Card>

      <Card>
        <CardHeader title="Invoices" description="Your subscription invoices and credit purchases." />
        {transactions.data ? (
          <TransactionsTable transactions={transactions.data} otherStatusLabel="Failed" emptyText="No invoices yet." />
        ) : transactions.error ? (
          <LoadError what="your invoices" onRetry={() => void refetchTransactions()} />
        ) : (
          <Spinner label="Loading invoices" />
        )}
      </Card>

      <CancelSubscriptionDialog open={cancelOpen} onOpenChange={setCancelOpen} immediate={status === 'past_due'} />
    </div>
  );
}
