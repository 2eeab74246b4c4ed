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
import { normalizeStatus, useProfile } from '@/features/profile/api/get-profile';
import { SubscriptionStatusBadge } from '@/features/profile/components/subscription-status-badge';
import { useTransactions } from '@/features/transactions/api/get-transactions';
import { TransactionsTable } from '@/features/transactions/components/transactions-table';
import { UsageStatisticsCard } from '@/features/usage/components/usage-statistics-card';
import { BILLING_DATE_FORMAT, formatDate } from '@/lib/format';
import { RECENT_TRANSACTIONS } from '@/lib/constants';

export default function DashboardRoute() {
  const { data: profile, error, isLoading, mutate } = useProfile();
  const { data: transactions, error: transactionsError, mutate: refetchTransactions } = useTransactions();
  const [buyOpen, setBuyOpen] = useState(false);

  if (isLoading) return <Spinner label="Loading your dashboard" />;
  if (error || !profile) return <LoadError what="your dashboard" onRetry={() => void mutate()} />;

  const status = normalizeStatus(profile.subscriptionStatus);

  return (
    <div className="page">
      <Card className="welcome">
        <h1 className="page-title">Welcome to Amazon to eBay Automation</h1>
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
            <Link to="/subscription" className="link">
              {status === 'active' ? 'Manage subscription' : 'Subscribe now'}
            </Link>
          )}
        </Card>
        <Card>
          <CardHeader title="API Key" action={<Key size={20} aria-hidden />} />
          <ApiKeyField apiKey={profile.apiKey} />
          <Link to="/api-keys" className="link">
            Manage API Key
          </Link>
        </Card>
      </div>

      <UsageStatisticsCard />

      <div className="grid-2">
        <SoftwareDownloadsCard active={status === 'active'} />
        <Card>
          <CardHeader
            title="Recent Transactions"
            action={
              <Link to="/transactions" className="link">
                View all transactions
              </Link>
            }
          />
          {transactions ? (
            <TransactionsTable transactions={transactions.slice(0, RECENT_TRANSACTIONS)} showInvoice={false} />
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
