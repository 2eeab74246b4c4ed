import { ArrowLeft } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useAccountBalance } from '@/features/staff-accounts/api/get-account-balance';
import { useAccountComparison } from '@/features/staff-accounts/api/get-account-comparison';
import { useAccountHistory } from '@/features/staff-accounts/api/get-account-history';
import { summaryOf, useAccount } from '@/features/staff-accounts/api/get-account';
import { AdjustmentForm } from '@/features/staff-accounts/components/adjustment-form';
import { AsOfPicker } from '@/features/staff-accounts/components/as-of-picker';
import { BalanceCard } from '@/features/staff-accounts/components/balance-card';
import { CancelDialog } from '@/features/staff-accounts/components/cancel-dialog';
import { ComparisonCard } from '@/features/staff-accounts/components/comparison-card';
import { endOfDayIso } from '@/features/staff-accounts/utils/format';
import { HistoryCard } from '@/features/staff-accounts/components/history-card';
import { PaymentsCard } from '@/features/staff-accounts/components/payments-card';
import { RebuildProjection } from '@/features/staff-accounts/components/rebuild-projection';
import { SettingsCard } from '@/features/staff-accounts/components/settings-card';
import { SectionCard } from '@/components/ui/section-card';
import { ApiError } from '@/lib/api-client';
import { paths } from '@/config/paths';

/** One account's standing, payments, history, balance and consistency; the as-of day lives in the address (?asOf=yyyy-MM-dd). */
export default function StaffAccountRoute() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const asOf = endOfDayIso(params.get('asOf'));
  const day = asOf ? params.get('asOf') : null;

  const view = useAccount(id);
  const account = view.data ? summaryOf(view.data) : undefined;
  const history = useAccountHistory(id, asOf);
  const balance = useAccountBalance(id, asOf);
  const comparison = useAccountComparison(id);

  // The history hook's own mutate reloads every page loaded so far; a
  // global mutate by key would reload only the first.
  const afterAdjustment = () => Promise.all([view.mutate(), history.mutate(), balance.mutate(), comparison.mutate()]);

  const back = (
    <Link className="link" to={paths.staff}>
      <ArrowLeft size={16} aria-hidden /> Search accounts
    </Link>
  );

  const notFound = (e: unknown) => e instanceof ApiError && e.status === 404;
  if (notFound(view.error) || notFound(history.error)) {
    return (
      <div className="page">
        {back}
        <h1 className="page-title">Account not found</h1>
        <p className="alert alert-error">No account has the id {id}.</p>
      </div>
    );
  }

  return (
    <div className="page">
      {back}
      <div>
        <h1 className="page-title">{account?.email ?? 'Account'}</h1>
        <p className="muted">
          Account id <code>{id}</code>
        </p>
      </div>
      <AsOfPicker day={day} onChange={(next) => setParams(next ? { asOf: next } : {})} />
      <div className="staff-grid">
        <BalanceCard balance={balance} account={account} />
        <ComparisonCard comparison={comparison} />
      </div>
      <PaymentsCard account={view} onRefunded={afterAdjustment} />
      <SettingsCard settings={view.data?.settings} />
      <HistoryCard history={history} />
      <SectionCard
        title="Subscription"
        description="Cancellations go through Stripe; the timeline shows them, with you and your reason, when Stripe confirms."
      >
        <div className="button-row">
          <CancelDialog accountId={id} onDone={afterAdjustment} />
        </div>
      </SectionCard>
      <div className="grid-2">
        <SectionCard title="Adjust credits" description="Recorded with you as the actor and your reason.">
          <AdjustmentForm accountId={id} onRecorded={afterAdjustment} />
        </SectionCard>
        <SectionCard title="Projections" description="Rebuild a read table from the events when the comparison shows it has drifted.">
          <RebuildProjection onRebuilt={() => comparison.mutate()} />
        </SectionCard>
      </div>
    </div>
  );
}
