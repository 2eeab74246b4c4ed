import { Link } from 'react-router';
import { ShieldAlert } from 'lucide-react';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { ApiKeyField } from '@/features/api-keys/components/api-key-field';
import { ApiKeysCard } from '@/features/api-keys/components/api-keys-card';
import { ExamplesWithKey } from '@/features/api-keys/components/example-key-picker';
import { SandboxCard } from '@/features/api-keys/components/sandbox-card';
import { RegenerateApiKey } from '@/features/api-keys/components/regenerate-api-key';
import { useProfile } from '@/lib/auth-api/get-profile';
import { useAppConfig } from '@/lib/app-config';
import { paths } from '@/config/paths';

export default function ApiKeysRoute() {
  const { data: profile, error, mutate } = useProfile();
  const { data: config, error: configError, mutate: refetchConfig } = useAppConfig();
  if (error && !profile) return <LoadError what="your API key" onRetry={() => void mutate()} />;
  if (configError && !config) return <LoadError what="the API documentation" onRetry={() => void refetchConfig()} />;
  if (!profile || !config) return <Spinner label="Loading your API key" />;

  return (
    <div className="page">
      <h1 className="page-title">API Keys</h1>
      <Card>
        <CardHeader
          title="Your API Key"
          description="Your Default key. The desktop software and your own scripts authenticate with it, or with another key below."
        />
        <ApiKeyField apiKey={profile.apiKey} />
        <div className="actions">
          <RegenerateApiKey />
        </div>
      </Card>

      <ApiKeysCard />

      <SandboxCard />

      <Card>
        <CardHeader title="Security Tips" action={<ShieldAlert size={20} aria-hidden />} />
        <ul className="bullets">
          <li>Keep your API key secret; never share it or commit it to source control.</li>
          <li>Store it in an environment variable or a secrets manager.</li>
          <li>Give each computer its own key, so a leak means rotating or revoking one key, not all.</li>
          <li>Regenerate or revoke a key at once if you think it has leaked; to switch over without downtime, rotate it with a grace period.</li>
          <li>Use it only from servers or the desktop software, never from a public web page.</li>
        </ul>
      </Card>

      <Card>
        <CardHeader title="API Documentation" description="Create listings programmatically." />
        <dl className="doc-list">
          <div>
            <dt>Authentication</dt>
            <dd>
              Send your key in the <code>X-API-Key</code> header with every request.
            </dd>
          </div>
          <div>
            <dt>Base path</dt>
            <dd>
              <code>{config.apiBaseUrl}/v1</code>
            </dd>
          </div>
          <div>
            <dt>Create a listing</dt>
            <dd>
              <code>POST /v1/listings</code> with a JSON body <code>{'{"amazonUrl": "..."}'}</code>
            </dd>
          </div>
          <div>
            <dt>Cost</dt>
            <dd>1 credit per request</dd>
          </div>
          <div>
            <dt>Rate limit</dt>
            <dd>{config.rateLimitPerMinute} requests per minute</dd>
          </div>
          <div>
            <dt>Reference</dt>
            <dd>
              <Link className="link" to={paths.desktopApiGuide}>
                Desktop API guide
              </Link>{' '}
              (error codes, retries, reading listings back, examples) and the{' '}
              <a className="link" href="/v1/openapi.json" target="_blank" rel="noreferrer">
                OpenAPI document
              </a>{' '}
              (every call, its answers and errors)
            </dd>
          </div>
          <div>
            <dt>Examples</dt>
            <dd>
              curl and PowerShell below run as copied with your key (each run costs 1 credit); the Node.js, Python, PHP
              and Go examples use the SDKs
            </dd>
          </div>
          <div>
            <dt>SDKs</dt>
            <dd>
              SDKs for Node.js, Python, PHP and Go: they retry safely with one Idempotency-Key, read an unknown outcome
              back, and raise an error class per error code
            </dd>
          </div>
        </dl>
        <h3 className="card-subtitle">Example request</h3>
        <ExamplesWithKey apiBaseUrl={config.apiBaseUrl} defaultKey={profile.apiKey} />
      </Card>
    </div>
  );
}
