import * as Tabs from '@radix-ui/react-tabs';
import { listingSnippets } from './snippets';

/** Example requests in curl, Node.js and Python, ready to copy and run. */
export function ApiExamples({ apiBaseUrl, apiKey }: { apiBaseUrl: string; apiKey: string }) {
  const snippets = listingSnippets(apiBaseUrl, apiKey);
  return (
    <Tabs.Root defaultValue="curl" className="tabs">
      <Tabs.List className="tabs-list" aria-label="Example language">
        {snippets.map((s) => (
          <Tabs.Trigger key={s.id} value={s.id} className="tabs-trigger">
            {s.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {snippets.map((s) => (
        <Tabs.Content key={s.id} value={s.id}>
          <pre className="code-block" data-snippet={s.id} role="region" tabIndex={0} aria-label={`${s.label} example`}>
            <code>{s.code}</code>
          </pre>
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
