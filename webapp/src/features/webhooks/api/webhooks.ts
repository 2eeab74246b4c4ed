import useSWR, { useSWRConfig } from 'swr';
import { z } from '@/lib/zod';
import { api } from '@/lib/api-client';

/** The webhook event types an endpoint can receive (the server's list; the developer guide documents each body). */
export const WEBHOOK_EVENT_TYPES = [
  'credits.granted',
  'credits.expiring',
  'credits.expired',
  'balance.low',
  'balance.recovered',
  'payment.succeeded',
  'payment.refunded',
  'subscription.updated',
  'api_key.created',
  'api_key.revoked',
  'spend_limit.reached',
] as const;

/** The most endpoints an account may have. */
export const MAX_WEBHOOK_ENDPOINTS = 5;

/** GET /api/webhooks/endpoints: an endpoint with its signing secret. */
export type WebhookEndpoint = {
  id: string;
  url: string;
  events: string[];
  secret: string;
  status: 'enabled' | 'disabled';
  failingSince: string | null;
  createdAt: string;
};

/** GET /api/webhooks/endpoints/{id}/deliveries: one line of the delivery log. */
export type WebhookDelivery = {
  id: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'sending' | 'delivered' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string;
  latencyMs: number | null;
  lastAttemptAt: string | null;
  nextRetryAt: string | null;
  createdAt: string;
};

export const webhookEndpointsKey = '/api/webhooks/endpoints';
export const webhookDeliveriesKey = (id: string) => `/api/webhooks/endpoints/${encodeURIComponent(id)}/deliveries`;

export const webhookEndpointSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'Enter the URL that receives the events')
    .refine((v) => /^https?:\/\/\S+$/i.test(v), 'Enter a URL starting with https://'),
  events: z.array(z.string()).min(1, 'Choose at least one event type'),
});

export type WebhookEndpointInput = z.infer<typeof webhookEndpointSchema>;

type EndpointList = { endpoints: WebhookEndpoint[] };
type DeliveryPage = { deliveries: WebhookDelivery[]; nextCursor: string | null };

export function useWebhookEndpoints() {
  return useSWR<EndpointList>(webhookEndpointsKey, () => api.get<EndpointList>(webhookEndpointsKey));
}

/** The newest page of an endpoint's delivery log; it refreshes every few seconds while shown. */
export function useWebhookDeliveries(id: string) {
  return useSWR<DeliveryPage>(webhookDeliveriesKey(id), () => api.get<DeliveryPage>(webhookDeliveriesKey(id)), {
    refreshInterval: 3000,
  });
}

/** The endpoint mutations; each refetches the list (and the log) it changes. */
export function useWebhookActions() {
  const { mutate } = useSWRConfig();
  const base = (id: string) => `${webhookEndpointsKey}/${encodeURIComponent(id)}`;
  return {
    add: async (input: WebhookEndpointInput) => {
      const created = await api.post<WebhookEndpoint>(webhookEndpointsKey, { url: input.url.trim(), events: input.events });
      await mutate(webhookEndpointsKey);
      return created;
    },
    remove: async (id: string) => {
      await api.delete(base(id));
      await mutate(webhookEndpointsKey);
    },
    rollSecret: async (id: string) => {
      const rolled = await api.post<{ id: string; secret: string }>(`${base(id)}/roll-secret`);
      await mutate(webhookEndpointsKey);
      return rolled;
    },
    resend: async (id: string, deliveryId: string) => {
      await api.post(`${base(id)}/deliveries/${encodeURIComponent(deliveryId)}/resend`);
      await mutate(webhookDeliveriesKey(id));
    },
  };
}
