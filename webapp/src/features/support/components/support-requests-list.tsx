import { Badge, type BadgeTone } from '@/components/ui/badge';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { useSupportRequests, type SupportRequestStatus } from '../api/get-support-requests';

const STATUS: Record<SupportRequestStatus, { label: string; tone: BadgeTone }> = {
  open: { label: 'Waiting for support', tone: 'warning' },
  answered: { label: 'Answered', tone: 'success' },
  closed: { label: 'Closed', tone: 'neutral' },
};

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/** The seller's own requests, newest first, each with support's replies. */
export function SupportRequestsList() {
  const { data, error, mutate } = useSupportRequests();
  if (error) return <LoadError what="your support requests" onRetry={() => void mutate()} />;
  if (!data) return <Spinner label="Loading your support requests" />;
  if (data.requests.length === 0) return <p className="muted">You have not sent any support request yet.</p>;
  return (
    <ul className="support-requests" aria-label="Your support requests">
      {data.requests.map((r) => (
        <li key={r.id} className="support-request">
          <article aria-label={r.subject}>
            <header className="support-request-header">
              <h3 className="support-request-subject">{r.subject}</h3>
              <Badge tone={STATUS[r.status].tone}>{STATUS[r.status].label}</Badge>
            </header>
            <p className="muted">Sent {when(r.createdAt)}</p>
            <p className="support-message">{r.message}</p>
            {r.replies.map((reply, i) => (
              <div key={i} className="support-reply" aria-label="Reply from support">
                <p className="muted">Support replied {when(reply.createdAt)}</p>
                <p className="support-message">{reply.message}</p>
              </div>
            ))}
          </article>
        </li>
      ))}
    </ul>
  );
}
