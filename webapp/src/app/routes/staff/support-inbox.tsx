import { ArrowLeft } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { SUPPORT_STATUSES, type SupportStatus } from '@/features/staff-support/api/get-support-inbox';
import { SectionCard } from '@/components/ui/section-card';
import { SupportInbox } from '@/features/staff-support/components/support-inbox';
import { paths } from '@/config/paths';

/** The support inbox; the status filter lives in the address (?status=open). */
export default function StaffSupportInboxRoute() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('status') ?? '';
  const status = (SUPPORT_STATUSES as readonly string[]).includes(raw) ? (raw as SupportStatus) : '';
  return (
    <div className="page">
      <Link className="link" to={paths.staff}>
        <ArrowLeft size={16} aria-hidden /> Staff console
      </Link>
      <h1 className="page-title">Support inbox</h1>
      <SectionCard title="Requests" description="Newest first, with the seller's account beside each.">
        <SupportInbox status={status} onStatus={(next) => setParams(next ? { status: next } : {})} />
      </SectionCard>
    </div>
  );
}
