import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { useSupportRequest } from '@/features/staff-support/api/get-support-request';
import { SupportThread } from '@/features/staff-support/components/support-thread';
import { ApiError } from '@/lib/api-client';
import { paths } from '@/config/paths';

/** One support request: its thread, a reply, its status and the seller's account. */
export default function StaffSupportRequestRoute() {
  const { id = '' } = useParams();
  const request = useSupportRequest(id);
  const back = (
    <Link className="link" to={paths.staffSupport}>
      <ArrowLeft size={16} aria-hidden /> Support inbox
    </Link>
  );
  if (request.error instanceof ApiError && request.error.status === 404) {
    return (
      <div className="page">
        {back}
        <h1 className="page-title">Support request not found</h1>
      </div>
    );
  }
  return (
    <div className="page">
      {back}
      <h1 className="page-title">{request.data?.subject ?? 'Support request'}</h1>
      {request.error ? (
        <LoadError what="the support request" onRetry={() => void request.mutate()} />
      ) : !request.data ? (
        <Spinner label="Loading the support request" />
      ) : (
        <SupportThread thread={request.data} onChanged={() => request.mutate()} />
      )}
    </div>
  );
}
