import { Coins, CreditCard, Key } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { ApiKeyField } from '@/features/api-keys/components/api-key-field';
import { CreditPurchaseDialog } from '@/features/credits/components/credit-purchase-dialog';
import { SoftwareDownloadsCard } from '@/features/download/components/software-downloads-card';
import { normalizeStatus, useProfile } from '@/lib/profile';
import { SubscriptionStatusBadge } from '@/components/subscription-status-badge';
import { useTransactions } from '@/features/transactions/api/get-transactions';
import { TransactionsTable } from '@/features/transactions/components/transactions-table';
import { UsageStatisticsCard } from '@/features/usage/components/usage-statistics-card';
import { BILLING_DATE_FORMAT, formatDate } from '@/lib/format';
import { useProductName } from '@/lib/app-config';
import { RECENT_TRANSACTIONS } from '@/lib/constants';
import { liveRefresh } from '@/lib/swr-config';
import { paths } from '@/config/paths';

export default function DashboardRoute() {
  // Balance, usage and transactions follow the desktop client's spends live.
  const { data: profile, error, mutate } = useProfile(liveRefresh);
  const { data: transactions, error: transactionsError, mutate: refetchTransactions } = useTransactions(liveRefresh);
  const productName = useProductName();
  const [buyOpen, setBuyOpen] = useState(false);

  // A failed background refresh keeps what is shown; only a first load that
  // fails replaces the screen.
  if (error && !profile) return <LoadError what="your dashboard" onRetry={() => void mutate()} />;
  if (!profile) return <Spinner label="Loading your dashboard" />;

  const status = normalizeStatus(profile.subscriptionStatus);

  return (
    <div className="page">
      <Card className="welcome">
        <h1 className="page-title">Welcome to {productName}</h1>
        <p>Manage your subscription, credits and API key, and download the desktop software.</p>
      </Card>

      <div className="grid-3">
        <Card>
          <CardHeader title="Credits Available" level={2} action={<Coins size={20} aria-hidden />} />
          <p className="stat">{profile.creditsAvailable.toLocaleString('en-US')}</p>
          <Button size="sm" onClick={() => setBuyOpen(true)}>
            Buy More
          </Button>
        </Card>
        <Card>
          <CardHeader title="Subscription Status" action={<CreditCard size={20} aria-hidden />} />
          <p className="stat">
            <SubscriptionStatusBadge status={profile.subscriptionStatus} />
          </p>
          {status === 'active' && profile.subscriptionRenewalDate ? (
            <p className="muted">Renews on {formatDate(profile.subscriptionRenewalDate, BILLING_DATE_FORMAT)}</p>
          ) : (
            <Link to={paths.subscription} className="link">
              {status === 'active' ? 'Manage subscription' : 'Subscribe now'}
            </Link>
          )}
        </Card>
        <Card>
          <CardHeader title="API Key" action={<Key size={20} aria-hidden />} />
          <ApiKeyField apiKey={profile.apiKey} />
          <Link to={paths.apiKeys} className="link">
            Manage API Key
          </Link>
        </Card>
      </div>

      <UsageStatisticsCard live />

      <div className="grid-2">
        <SoftwareDownloadsCard active={status === 'active'} />
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

      <CreditPurchaseDialog open={buyOpen} onOpenChange={setBuyOpen} />
    </div>
  );
}
