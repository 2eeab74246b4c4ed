import { useId, useState } from 'react';
import { useApiKeys } from '../api/api-keys';
import { ApiExamples } from './api-examples';

/** The example requests, written with the key the seller picks (the Default key at first). */
export function ExamplesWithKey({ apiBaseUrl, defaultKey }: { apiBaseUrl: string; defaultKey: string }) {
  const { data: keys } = useApiKeys();
  const [chosen, setChosen] = useState<string | null>(null);
  const id = useId();
  const usable = (keys ?? []).filter((k) => k.apiKey && !k.graceEndsAt);
  const apiKey = usable.find((k) => k.id === chosen)?.apiKey ?? defaultKey;
  return (
    <>
      {usable.length > 1 && (
        <div className="field">
          <label className="field-label" htmlFor={id}>
            Key in the examples
          </label>
          <select id={id} className="input" value={chosen ?? usable[0].id} onChange={(e) => setChosen(e.target.value)}>
            {usable.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name} ({k.prefix}…)
              </option>
            ))}
          </select>
        </div>
      )}
      <ApiExamples apiBaseUrl={apiBaseUrl} apiKey={apiKey} />
    </>
  );
}
