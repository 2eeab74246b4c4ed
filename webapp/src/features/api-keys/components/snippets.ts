/** A product on amazon.com; each run of an example costs 1 credit. */
const EXAMPLE_URL = 'https://www.amazon.com/dp/B08N5WRWNW';

export type Snippet = { id: 'curl' | 'powershell' | 'node' | 'python'; label: string; code: string };

/**
 * Examples of POST /v1/listings that work as copied: the seller's own key
 * and the server's public address (APP_BASE_URL), nothing to fill in. Each
 * sends a fresh Idempotency-Key, as docs/desktop-api.md asks. curl is for
 * macOS and Linux shells; Windows gets PowerShell's own client.
 */
export function listingSnippets(apiBaseUrl: string, apiKey: string): Snippet[] {
  const url = `${apiBaseUrl}/v1/listings`;
  const body = JSON.stringify({ amazonUrl: EXAMPLE_URL });
  return [
    {
      id: 'curl',
      label: 'curl',
      code: [
        `# macOS or Linux shell`,
        `curl -X POST ${url} \\`,
        `  -H "X-API-Key: ${apiKey}" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -H "Idempotency-Key: $(uuidgen 2>/dev/null || cat /proc/sys/kernel/random/uuid)" \\`,
        `  -d '${body}'`,
      ].join('\n'),
    },
    {
      id: 'powershell',
      label: 'PowerShell',
      code: [
        `# Windows PowerShell 5.1 or PowerShell 7`,
        `$headers = @{`,
        `  'X-API-Key' = '${apiKey}'`,
        `  'Idempotency-Key' = [guid]::NewGuid().ToString()`,
        `}`,
        `$body = '${body}'`,
        `Invoke-RestMethod -Method Post -Uri '${url}' -Headers $headers -ContentType 'application/json' -Body $body`,
      ].join('\n'),
    },
    {
      id: 'node',
      label: 'Node.js',
      code: [
        `// Node.js 18 or later: save as listing.mjs, run: node listing.mjs`,
        `import { randomUUID } from 'node:crypto';`,
        ``,
        `const response = await fetch('${url}', {`,
        `  method: 'POST',`,
        `  headers: {`,
        `    'X-API-Key': '${apiKey}',`,
        `    'Content-Type': 'application/json',`,
        `    'Idempotency-Key': randomUUID(),`,
        `  },`,
        `  body: JSON.stringify({ amazonUrl: '${EXAMPLE_URL}' }),`,
        `});`,
        `console.log(response.status, await response.json());`,
      ].join('\n'),
    },
    {
      id: 'python',
      label: 'Python',
      code: [
        `# Python 3, standard library only: save as listing.py, run: python3 listing.py`,
        `import json, urllib.error, urllib.request, uuid`,
        ``,
        `request = urllib.request.Request(`,
        `    "${url}",`,
        `    data=json.dumps({"amazonUrl": "${EXAMPLE_URL}"}).encode(),`,
        `    headers={`,
        `        "X-API-Key": "${apiKey}",`,
        `        "Content-Type": "application/json",`,
        `        "Idempotency-Key": str(uuid.uuid4()),`,
        `    },`,
        `    method="POST",`,
        `)`,
        `try:`,
        `    with urllib.request.urlopen(request, timeout=30) as response:`,
        `        print(response.status, json.load(response))`,
        `except urllib.error.HTTPError as error:`,
        `    print(error.code, json.load(error))`,
      ].join('\n'),
    },
  ];
}
