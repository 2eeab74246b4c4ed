import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { useWebhookActions, useWebhookDeliveries, type WebhookDelivery } from '../api/webhooks';

const utc = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'medium' });
const when = (iso: string | null) => (iso ? `${utc.format(new Date(iso))} UTC` : '—');

const TONE: Record<WebhookDelivery['status'], BadgeTone> = { delivered: 'success', pending: 'warning', sending: 'info', failed: 'danger' };

/** An endpoint's delivery log, newest event first, each with a Resend button. */
export function WebhookDeliveries({ endpointId }: { endpointId: string }) {
  const { data, error, mutate } = useWebhookDeliveries(endpointId);
  const { resend } = useWebhookActions();
  if (!data && error) return <LoadError what="the deliveries" onRetry={() => void mutate()} />;
  if (!data) return <Spinner label="Loading deliveries" />;
  if (data.deliveries.length === 0) return <p className="muted">No events sent to this endpoint yet.</p>;
  const onResend = async (d: WebhookDelivery) => {
    try {
      await resend(endpointId, d.id);
      toast({ title: 'Delivery queued again', variant: 'success' });
    } catch (e) {
      toast({ title: 'Error', description: serverMessage(e) ?? 'Failed to resend. Please try again.', variant: 'destructive' });
    }
  };
  return (
    <div className="table-wrap" role="region" aria-label="Deliveries" tabIndex={0}>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Next retry</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {data.deliveries.map((d) => (
            <tr key={d.id}>
              <th scope="row">
                <code>{d.eventType}</code>
                <br />
                <small className="muted">{d.eventId}</small>
              </th>
              <td>
                <Badge tone={TONE[d.status]}>{d.status}</Badge>
              </td>
              <td className="num">{d.attempts}</td>
              <td>
                {d.lastStatus ?? (d.lastError ? 'no answer' : '—')}
                {d.latencyMs !== null && <small className="muted"> ({d.latencyMs} ms)</small>}
              </td>
              <td>{when(d.nextRetryAt)}</td>
              <td>
                <Button size="sm" variant="outline" onClick={() => void onResend(d)} aria-label={`Resend ${d.eventType} ${d.eventId}`}>
                  Resend
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
