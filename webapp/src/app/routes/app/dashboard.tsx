import { Coins, CreditCard, Key } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useInView } from 'react-intersection-observer';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { LowBalanceBanner } from '@/features/alerts/components/low-balance-banner';
import { ApiKeyField } from '@/features/api-keys/components/api-key-field';
import { SoftwareDownloadsCard } from '@/features/download/components/software-downloads-card';
import { normalizeStatus, useProfile, type Profile } from '@/lib/auth-api/get-profile';
import { SubscriptionStatusBadge } from '@/components/subscription-status-badge';
import { RECENT_TRANSACTIONS, useTransactions } from '@/features/transactions/api/get-transactions';
import { TransactionsTable } from '@/features/transactions/components/transactions-table';
import { UsageStatisticsCard } from '@/features/usage/components/usage-statistics-card';
import { BILLING_DATE_FORMAT, formatDate } from '@/lib/dates';
import { liveRefresh } from '@/lib/swr-config';
import { DashboardSkeleton, SkeletonCard, WelcomeCard } from './dashboard-skeleton';
import { paths } from '@/config/paths';
import { useKeyboardNavigation } from '@/hooks/use-keyboard-navigation';

// Issue 38: what the dashboard does not show on first paint (the cards under
// the fold with their forms and zod, the chart, the purchase dialog) is
// loaded in chunks of its own, each card's when it comes near the viewport
// (WhenNear), the dialog's when Buy More is first pressed: on a phone none
// of it is parsed before the seller scrolls.
const DailyUsageCard = lazy(() =>
  import('@/features/usage/components/daily-usage-chart').then((m) => ({ default: m.DailyUsageCard })),
);
const SpendLimitsCard = lazy(() =>
  import('@/features/spend-limits/components/spend-limits-card').then((m) => ({ default: m.SpendLimitsCard })),
);
const AlertsCard = lazy(() => import('@/features/alerts/components/alerts-card').then((m) => ({ default: m.AlertsCard })));
// Auto-recharge's card, with the payment form it confirms a 3-D Secure
// payment in (passed in: a feature does not import another).
const AutoRechargeCard = lazy(() =>
  Promise.all([
    import('@/features/auto-recharge/components/auto-recharge-card'),
    import('@/features/payments/components/payment-form'),
  ]).then(([card, payment]) => ({
    default: ({ live }: { live?: boolean }) => <card.AutoRechargeCard live={live} paymentForm={payment.PaymentForm} />,
  })),
);
const CreditPurchaseDialog = lazy(() =>
  import('@/features/credits/components/credit-purchase-dialog').then((m) => ({ default: m.CreditPurchaseDialog })),
);

export default function DashboardRoute() {
  // Balance, usage and transactions follow the desktop client's spends live.
  const { data: profile, error, mutate } = useProfile(liveRefresh);
  const { data: transactions, error: transactionsError, mutate: refetchTransactions } = useTransactions(liveRefresh);
  const [buyOpen, setBuyOpen] = useState(false);
  // The dialog's code loads when it is first opened and stays mounted, so
  // closing it animates and returns focus to Buy More as before.
  const [buyUsed, setBuyUsed] = useState(false);
  const openBuy = () => {
    setBuyUsed(true);
    setBuyOpen(true);
  };

  // A failed background refresh keeps what is shown; only a first load that
  // fails replaces the screen.
  if (error && !profile) return <LoadError what="your dashboard" onRetry={() => void mutate()} />;
  if (!profile) {
    return (
      <div className="page">
        <WelcomeCard />
        <DashboardSkeleton />
      </div>
    );
  }

  return (
    <div className="page">
      <WelcomeCard />

      <LowBalanceBanner profile={profile} />
      <BillingNotices profile={profile} />

      <div className="grid-3">
        <Card className="summary-card">
          <CardHeader title="Credits Available" level={2} action={<Coins size={20} aria-hidden />} />
          <p className="stat">{profile.creditsAvailable.toLocaleString('en-US')}</p>
          <Button size="sm" onClick={openBuy}>
            Buy More
          </Button>
        </Card>
        <Card className="summary-card">
          <CardHeader title="Subscription Status" action={<CreditCard size={20} aria-hidden />} />
          <p className="stat">
            <SubscriptionStatusBadge status={profile.subscriptionStatus} endsAt={profile.subscriptionEndsAt} />
          </p>
          <SubscriptionSummary profile={profile} />
        </Card>
        <Card className="summary-card">
          <CardHeader title="API Key" action={<Key size={20} aria-hidden />} />
          <ApiKeyField apiKey={profile.apiKey} />
          <Link to={paths.apiKeys} className="link">
            Manage API Key
          </Link>
        </Card>
      </div>

      <UsageStatisticsCard live lastSpendAt={profile.lastSpendAt} />
      <WhenNear lines={4} shape="usage">
        <DailyUsageCard live />
      </WhenNear>

      <WhenNear lines={3} shape="spend-limits">
        <SpendLimitsCard live />
      </WhenNear>

      <WhenNear lines={3} shape="alerts">
        <AlertsCard />
      </WhenNear>

      <WhenNear lines={3} shape="auto-recharge">
        <AutoRechargeCard live />
      </WhenNear>

      <div className="grid-2">
        <SoftwareDownloadsCard active={profile.premiumAccess} />
        <Card>
          <CardHeader
            title="Recent Transactions"
            action={
              <Link to={paths.transactions} className="link">
                View all transactions
              </Link>
            }
          />
          {transactions ? (
            <TransactionsTable
              transactions={transactions.slice(0, RECENT_TRANSACTIONS)}
              showInvoice={false}
              emptyText="No transactions yet. Your subscription payments and credit purchases will show here."
            />
          ) : transactionsError ? (
            <LoadError what="your transactions" onRetry={() => void refetchTransactions()} />
          ) : (
            <Spinner label="Loading transactions" />
          )}
        </Card>
      </div>

      {buyUsed && (
        <Suspense fallback={null}>
          <CreditPurchaseDialog open={buyOpen} onOpenChange={setBuyOpen} />
        </Suspense>
      )}
    </div>
  );
}

/**
 * A deferred card: a grey card in its shape until it comes within 200 px of
 * the viewport (react-intersection-observer) or the seller first presses Tab
 * (a keyboard user would otherwise tab past the placeholder), then the card,
 * its code loaded then. Once there, it stays. Its slot keeps the placeholder,
 * and the card while it shows its loading spinner, as tall as the card
 * (`shape`, index.css), so the cards below do not move when it arrives (a
 * layout shift of 0.036 on the desktop dashboard before).
 */
function WhenNear({ lines, shape, children }: { lines: number; shape: string; children: ReactNode }) {
  const { ref, inView } = useInView({ triggerOnce: true, rootMargin: '200px 0px' });
  const keyboard = useKeyboardNavigation();
  return (
    <div className={`deferred-slot deferred-${shape}`}>
      {!inView && !keyboard ? (
        <SkeletonCard lines={lines} ref={ref} deferred />
      ) : (
        <Suspense fallback={<SkeletonCard lines={lines} />}>{children}</Suspense>
      )}
    </div>
  );
}

/** What the Subscription Status card says under the badge, per status. */
function SubscriptionSummary({ profile }: { profile: Profile }) {
  const status = normalizeStatus(profile.subscriptionStatus);
  const manage = (
    <Link to={paths.subscription} className="link">
      Manage subscription
    </Link>
  );
  switch (status) {
    case 'active':
      return profile.subscriptionRenewalDate ? (
        <p className="muted">Renews on {formatDate(profile.subscriptionRenewalDate, BILLING_DATE_FORMAT)}</p>
      ) : (
        manage
      );
    case 'cancelling':
      return (
        <>
          <p className="muted">
            {profile.subscriptionEndsAt
              ? `Will not renew after ${formatDate(profile.subscriptionEndsAt, BILLING_DATE_FORMAT)}.`
              : 'Will not renew.'}{' '}
            Resume it any time before then.
          </p>
          {manage}
        </>
      );
    case 'past_due':
      return (
        <>
          <p className="muted">Your last payment failed. Update your payment method to keep your subscription.</p>
          {manage}
        </>
      );
    default:
      return (
        <Link to={paths.subscription} className="link">
          Subscribe now
        </Link>
      );
  }
}

/** Credits owed after a refund or a lost dispute, and spending paused by an open dispute. */
function BillingNotices({ profile }: { profile: Profile }) {
  const debt = profile.creditDebt ?? 0;
  const notices: ReactNode[] = [];
  if (debt > 0) {
    notices.push(
      <div key="debt" className="alert alert-warning" role="note" aria-label="Credits owed">
        <p>
          You owe {debt.toLocaleString('en-US')} {debt === 1 ? 'credit' : 'credits'} from a refunded or disputed payment
          whose credits were already spent. Your next credits (a purchase, a renewal) repay it first.
        </p>
      </div>,
    );
  }
  if (profile.spendingFrozen) {
    notices.push(
      <div key="frozen" className="alert alert-warning" role="note" aria-label="Spending paused">
        <p>
          Spending is paused while a payment dispute is open: the desktop software and the API cannot use credits until it
          is resolved. You can still buy credits. Contact support to resolve it.
        </p>
      </div>,
    );
  }
  return notices.length > 0 ? <div className="stack">{notices}</div> : null;
}
