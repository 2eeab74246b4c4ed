import { SecretField } from '@/components/ui/secret-field';
import { CopyApiKeyButton } from './copy-api-key-button';

/** The API key, read-only and masked until shown, with its copy button (which copies it either way). */
export function ApiKeyField({ apiKey }: { apiKey: string }) {
  return <SecretField label="API Key" name="API key" value={apiKey} actions={<CopyApiKeyButton text={apiKey} />} />;
}
