import * as Tabs from '@radix-ui/react-tabs';
import { CodeBlock } from '@/components/ui/code-block';
import { maskSecret } from '@/components/ui/secret-field';
import { listingSnippets } from './snippets';

/**
 * Example requests in curl, PowerShell and the SDKs, ready to copy and run:
 * shown with the key masked (as the key field above shows it), copied with
 * the key itself.
 */
export function ApiExamples({ apiBaseUrl, apiKey }: { apiBaseUrl: string; apiKey: string }) {
  const snippets = listingSnippets(apiBaseUrl, apiKey);
  const shown = listingSnippets(apiBaseUrl, maskSecret(apiKey));
  return (
    <Tabs.Root defaultValue="curl" className="tabs">
      <Tabs.List className="tabs-list" aria-label="Example language">
        {snippets.map((s) => (
          <Tabs.Trigger key={s.id} value={s.id} className="tabs-trigger">
            {s.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {snippets.map((s, i) => (
        <Tabs.Content key={s.id} value={s.id}>
          <CodeBlock
            text={s.code}
            copyLabel={`Copy ${s.label} example`}
            data-snippet={s.id}
            role="region"
            aria-label={`${s.label} example`}
          >
            <code>{shown[i].code}</code>
          </CodeBlock>
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
