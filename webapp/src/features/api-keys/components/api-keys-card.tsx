import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound, RefreshCw, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { InputField } from '@/components/ui/form-field';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { ApiError, serverMessage } from '@/lib/api-client';
import { graceChoices, newKeySchema, useApiKeyActions, useApiKeys, type ApiKey, type NewKeyInput } from '../api/api-keys';
import { ApiKeyField } from './api-key-field';

const when = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' });
const at = (iso: string | null, none: string) => (iso ? `${when.format(new Date(iso))} UTC` : none);

/**
 * The account's API keys (issue 34): each with its name, prefix, mode, last use and expiry; a form
 * that creates one, and per key a rotation with a grace choice and a revocation with a confirmation.
 * A key just made is shown in full once at the top, ready to copy.
 */
export function ApiKeysCard() {
  const { data: keys, error, mutate } = useApiKeys();
  const [made, setMade] = useState<{ title: string; key: ApiKey } | null>(null);
  return (
    <Card aria-labelledby="api-keys-title">
      <CardHeader
        title={<span id="api-keys-title">Your Keys</span>}
        description="One key per computer or script: they all spend from your one credit balance, and each can be rotated or revoked alone."
      />
      {made?.key.apiKey && (
        <div className="alert alert-info" role="status" aria-label={made.title}>
          <p>
            {made.title}: <strong>{made.key.name}</strong>. Copy it into your software now.
          </p>
          <ApiKeyField apiKey={made.key.apiKey} />
        </div>
      )}
      {!keys && !error && <Spinner label="Loading your keys" />}
      {!keys && error && <LoadError what="your keys" onRetry={() => void mutate()} />}
      {keys && (
        <ul className="key-list" aria-label="API keys">
          {keys.map((k) => (
            <KeyItem key={k.id} apiKey={k} onMade={(key) => setMade({ title: 'Key rotated', key })} />
          ))}
        </ul>
      )}
      <NewKeyForm onMade={(key) => setMade({ title: 'Key created', key })} />
    </Card>
  );
}

function KeyItem({ apiKey: k, onMade }: { apiKey: ApiKey; onMade: (key: ApiKey) => void }) {
  return (
    <li className="key-item" aria-label={`${k.name} (${k.prefix}…)`}>
      <div className="key-item-head">
        <KeyRound size={16} aria-hidden />
        <strong>{k.name}</strong>
        <code>{k.prefix}…</code>
        <Badge tone={k.mode === 'test' ? 'warning' : 'success'}>{k.mode}</Badge>
        {k.isDefault && <Badge tone="outline">Default</Badge>}
        {k.graceEndsAt && <Badge tone="warning">Rotated</Badge>}
      </div>
      <dl className="key-item-facts">
        <div>
          <dt>Last used</dt>
          <dd>{at(k.lastUsedAt, 'Never')}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{k.graceEndsAt ? `${at(k.graceEndsAt, '')} (end of the rotation's grace)` : at(k.expiresAt, 'Never')}</dd>
        </div>
      </dl>
      {!k.graceEndsAt && (
        <div className="actions">
          <RotateKey apiKey={k} onMade={onMade} />
          {!k.isDefault && <RevokeKey apiKey={k} />}
        </div>
      )}
      {k.graceEndsAt && !k.isDefault && (
        <div className="actions">
          <RevokeKey apiKey={k} />
        </div>
      )}
    </li>
  );
}

function RotateKey({ apiKey: k, onMade }: { apiKey: ApiKey; onMade: (key: ApiKey) => void }) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [grace, setGrace] = useState<number>(graceChoices[1].seconds);
  const { rotate } = useApiKeyActions();
  const id = useId();

  async function onConfirm() {
    setPending(true);
    try {
      onMade(await rotate(k, grace));
      toast({ title: 'API Key Rotated', description: `A new key replaces ${k.name}.`, variant: 'success' });
      setOpen(false);
    } catch (error) {
      toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to rotate the API key.', variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)} aria-label={`Rotate ${k.name}`}>
        <RefreshCw size={16} aria-hidden /> Rotate
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => !pending && setOpen(next)}
        title={`Rotate ${k.name}`}
        description="A new key replaces this one. Choose how long the old key keeps working, so your software can switch over."
        footer={
          <>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={pending}>
              Cancel
            </Button>
            <Button onClick={onConfirm} busy={pending}>
              {pending ? 'Rotating...' : 'Rotate key'}
            </Button>
          </>
        }
      >
        <div className="field">
          <label className="field-label" htmlFor={id}>
            Old key
          </label>
          <select id={id} className="input" value={grace} onChange={(e) => setGrace(Number(e.target.value))}>
            {graceChoices.map((c) => (
              <option key={c.seconds} value={c.seconds}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
      </Dialog>
    </>
  );
}

function RevokeKey({ apiKey: k }: { apiKey: ApiKey }) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const { revoke } = useApiKeyActions();

  async function onConfirm() {
    setPending(true);
    try {
      await revoke(k);
      toast({ title: 'API Key Revoked', description: `${k.name} no longer works.`, variant: 'success' });
      setOpen(false);
    } catch (error) {
      toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to revoke the API key.', variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)} aria-label={`Revoke ${k.name}`}>
        <Trash2 size={16} aria-hidden /> Revoke
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => !pending && setOpen(next)}
        title={`Revoke ${k.name}`}
        description="The key stops working at once, everywhere. Software still using it gets 401 api_key_invalid."
        footer={
          <>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={pending}>
              Keep Key
            </Button>
            <Button variant="destructive" onClick={onConfirm} busy={pending}>
              {pending ? 'Revoking...' : 'Yes, Revoke'}
            </Button>
          </>
        }
      />
    </>
  );
}

function NewKeyForm({ onMade }: { onMade: (key: ApiKey) => void }) {
  const { create } = useApiKeyActions();
  const expiryId = useId();
  const modeId = useId();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NewKeyInput>({
    resolver: zodResolver(newKeySchema),
    defaultValues: { name: '', expiresInDays: '', mode: 'live' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      onMade(await create(values));
      reset({ name: '', expiresInDays: '', mode: 'live' });
      toast({ title: 'API Key Created', variant: 'success' });
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      if (fields.name) setError('name', { message: fields.name });
      toast({ title: 'Error', description: serverMessage(error) ?? 'Failed to create the API key.', variant: 'destructive' });
    }
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="New API key">
      <h3 className="card-subtitle">New key</h3>
      <InputField label="Key name" placeholder="Office PC" error={errors.name} registration={register('name')} />
      <div className="field">
        <label className="field-label" htmlFor={modeId}>
          Mode
        </label>
        <select id={modeId} className="input" {...register('mode')}>
          <option value="live">Live: spends your credits</option>
          <option value="test">Test: spends sandbox test credits (a2e_test_)</option>
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={expiryId}>
          Expires
        </label>
        <select id={expiryId} className="input" {...register('expiresInDays')}>
          <option value="">Never</option>
          <option value="7">In 7 days</option>
          <option value="30">In 30 days</option>
          <option value="90">In 90 days</option>
          <option value="365">In a year</option>
        </select>
      </div>
      <Button type="submit" busy={isSubmitting}>
        {isSubmitting ? 'Creating...' : 'Create key'}
      </Button>
    </form>
  );
}
