import { Link } from 'react-router';
import { AccountSearch } from '@/features/staff-accounts/components/account-search';
import { SectionCard } from '@/components/ui/section-card';
import { paths } from '@/config/paths';

export default function StaffSearchRoute() {
  return (
    <div className="page">
      <h1 className="page-title">Staff console</h1>
      <p>
        <Link className="link" to={paths.staffSupport}>
          Support inbox
        </Link>{' '}
        <span className="muted">: the sellers' requests, their replies and status.</span>
      </p>
      <p>
        <Link className="link" to={paths.staffAudit}>
          Audit trail
        </Link>{' '}
        <span className="muted">: who looked at which account, and every staff action.</span>
      </p>
      <SectionCard title="Find an account" description="Part of an email, or a whole account id.">
        <AccountSearch />
      </SectionCard>
    </div>
  );
}
