import { AccountSearch } from '@/features/staff/components/account-search';
import { StaffCard } from '@/features/staff/components/staff-card';

export default function StaffSearchRoute() {
  return (
    <div className="page">
      <h1 className="page-title">Staff console</h1>
      <StaffCard title="Find an account" description="Part of an email, or a whole account id.">
        <AccountSearch />
      </StaffCard>
    </div>
  );
}
