import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { useWebhookActions, type WebhookEndpoint } from '../api/webhooks';
import { WebhookDeliveries } from './webhook-deliveries';

/** One endpoint: its URL and events, its secret on demand, roll and remove, and its delivery log. */
export function WebhookEndpointItem({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { remove, rollSecret } = useWebhookActions();
  const [showSecret, setShowSecret] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [busy, setBusy] = useState<'roll' | 'remove' | null>(null);

  const act = async (kind: 'roll' | 'remove') => {
    if (kind === 'remove' && !window.confirm(`Remove the endpoint ${endpoint.url}? It receives nothing more.`)) return;
    setBusy(kind);
    try {
      if (kind === 'roll') {
        await rollSecret(endpoint.id);
        setShowSecret(true);
        toast({ title: 'Secret rolled', description: 'The old secret keeps signing for 24 hours.', variant: 'success' });
      } else {
        await remove(endpoint.id);
        toast({ title: 'Endpoint removed', variant: 'success' });
      }
    } catch (e) {
      toast({ title: 'Error', description: serverMessage(e) ?? 'Please try again.', variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <li className="webhook-endpoint" aria-label={`Endpoint ${endpoint.url}`}>
      <p className="webhook-url">
        <code>{endpoint.url}</code>{' '}
        {endpoint.status === 'disabled' ? <Badge tone="danger">disabled</Badge> : <Badge tone="success">enabled</Badge>}
      </p>
      <p className="muted">Events: {endpoint.events.join(', ')}</p>
      <p>
        Signing secret:{' '}
        {showSecret ? <code aria-label="Signing secret">{endpoint.secret}</code> : <span aria-hidden="true">whsec_••••••••</span>}
      </p>
      <div className="actions">
        <Button size="sm" variant="outline" onClick={() => setShowSecret((v) => !v)} aria-expanded={showSecret}>
          {showSecret ? 'Hide secret' : 'Show secret'}
        </Button>
        <Button size="sm" variant="outline" busy={busy === 'roll'} onClick={() => void act('roll')}>
          Roll secret
        </Button>
        <Button size="sm" variant="outline" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
          {showLog ? 'Hide deliveries' : 'Show deliveries'}
        </Button>
        <Button size="sm" variant="destructive" busy={busy === 'remove'} onClick={() => void act('remove')}>
          Remove
        </Button>
      </div>
      {showLog && <WebhookDeliveries endpointId={endpoint.id} />}
    </li>
  );
}
