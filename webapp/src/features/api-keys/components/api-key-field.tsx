import { useId } from 'react';
import { CopyApiKeyButton } from './copy-api-key-button';

/** The API key, read-only, with its copy button. */
export function ApiKeyField({ apiKey }: { apiKey: string }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        API Key
      </label>
      <div className="input-group">
        <input id={id} className="input input-mono" readOnly value={apiKey} onFocus={(e) => e.currentTarget.select()} />
        <CopyApiKeyButton text={apiKey} />
      </div>
    </div>
  );
}
