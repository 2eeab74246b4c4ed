import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { InputField } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast-store';
import { ApiError, serverMessage } from '@/lib/api-client';
import { WEBHOOK_EVENT_TYPES, webhookEndpointSchema, useWebhookActions, type WebhookEndpointInput } from '../api/webhooks';

/** Adds an endpoint: its URL and the event types it receives. */
export function WebhookEndpointForm({ full }: { full: boolean }) {
  const { add } = useWebhookActions();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<WebhookEndpointInput>({
    resolver: zodResolver(webhookEndpointSchema),
    defaultValues: { url: '', events: [...WEBHOOK_EVENT_TYPES] },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await add(values);
      reset({ url: '', events: [...WEBHOOK_EVENT_TYPES] });
      toast({ title: 'Endpoint added', variant: 'success' });
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      for (const name of ['url', 'events'] as const) {
        if (fields[name]) setError(name, { message: fields[name] });
      }
      toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to add the endpoint. Please try again.', variant: 'destructive' });
    }
  });

  if (full) {
    return <p className="muted">You have the most endpoints an account can have. Remove one to add another.</p>;
  }
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Add a webhook endpoint">
      <InputField label="Endpoint URL" type="url" inputMode="url" placeholder="https://example.com/webhooks" error={errors.url} registration={register('url')} />
      <fieldset className="webhook-events" aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
        <legend>Events to send</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="checkbox">
            <input type="checkbox" value={type} {...register('events')} /> <code>{type}</code>
          </label>
        ))}
        {errors.events?.message && (
          <p id="webhook-events-error" className="field-error" role="alert">
            {errors.events.message}
          </p>
        )}
      </fieldset>
      <Button type="submit" busy={isSubmitting}>
        {isSubmitting ? 'Adding...' : 'Add endpoint'}
      </Button>
    </form>
  );
}
