import { Card, CardHeader } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { MAX_WEBHOOK_ENDPOINTS, useWebhookEndpoints } from '@/features/webhooks/api/webhooks';
import { WebhookEndpointForm } from '@/features/webhooks/components/webhook-endpoint-form';
import { WebhookEndpointItem } from '@/features/webhooks/components/webhook-endpoint-item';

export default function WebhooksRoute() {
  const { data, error, mutate } = useWebhookEndpoints();
  const endpoints = data?.endpoints ?? [];
  return (
    <div className="page">
      <h1 className="page-title">Webhooks</h1>
      <Card>
        <CardHeader
          title="Endpoints"
          description={`Your systems hear about credits, payments, your balance and your API key as they happen: each event is POSTed as JSON, signed in the A2E-Signature header with the endpoint's secret, and retried for three days. Up to ${MAX_WEBHOOK_ENDPOINTS} endpoints.`}
        />
        {!data && error && <LoadError what="your webhook endpoints" onRetry={() => void mutate()} />}
        {!data && !error && <Spinner label="Loading webhook endpoints" />}
        {data && endpoints.length === 0 && <p className="muted">No endpoints yet.</p>}
        {endpoints.length > 0 && (
          <ul className="webhook-endpoints" aria-label="Webhook endpoints">
            {endpoints.map((e) => (
              <WebhookEndpointItem key={e.id} endpoint={e} />
            ))}
          </ul>
        )}
      </Card>
      {data && (
        <Card>
          <CardHeader title="Add an endpoint" />
          <WebhookEndpointForm full={endpoints.length >= MAX_WEBHOOK_ENDPOINTS} />
        </Card>
      )}
    </div>
  );
}
