/** A product on amazon.com; each run of an example costs 1 credit. */
const EXAMPLE_URL = 'https://www.amazon.com/dp/B08N5WRWNW';

export type Snippet = { id: 'curl' | 'powershell' | 'node' | 'python' | 'php' | 'go'; label: string; code: string };

/**
 * Examples of POST /v1/listings that work as copied: the seller's own key
 * and the server's public address (APP_BASE_URL), nothing to fill in. curl
 * (macOS and Linux shells) and PowerShell (Windows) call the API itself with
 * a fresh Idempotency-Key, as the guide asks; Node.js, Python, PHP and Go
 * use the SDKs (sdk/), which keep one key across their retries.
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
        `// Node.js 18 or later with the SDK (npm install ./sdk/typescript): save as listing.mjs, run: node listing.mjs`,
        `import { Client, InsufficientCreditsError } from '@a2e-automation/sdk';`,
        ``,
        `const client = new Client({ apiKey: '${apiKey}', baseUrl: '${apiBaseUrl}' });`,
        `try {`,
        `  // One Idempotency-Key per listing, kept for every retry (429, 503, network errors)`,
        `  const listing = await client.listings.create({ amazonUrl: '${EXAMPLE_URL}' });`,
        `  console.log(listing.id, listing.status, listing.creditsRemaining);`,
        `} catch (error) {`,
        `  if (error instanceof InsufficientCreditsError) console.log('Buy more credits');`,
        `  else throw error;`,
        `}`,
      ].join('\n'),
    },
    {
      id: 'python',
      label: 'Python',
      code: [
        `# Python 3.9 or later with the SDK (pip install ./sdk/python): save as listing.py, run: python3 listing.py`,
        `import a2e`,
        ``,
        `client = a2e.Client(api_key="${apiKey}", base_url="${apiBaseUrl}")`,
        `try:`,
        `    # One Idempotency-Key per listing, kept for every retry (429, 503, network errors)`,
        `    listing = client.listings.create(amazon_url="${EXAMPLE_URL}")`,
        `    print(listing.id, listing.status, listing.credits_remaining)`,
        `except a2e.InsufficientCreditsError:`,
        `    print("Buy more credits")`,
      ].join('\n'),
    },
    {
      id: 'php',
      label: 'PHP',
      code: [
        `<?php`,
        `// PHP 8.1 or later with the curl extension and the SDK (sdk/php: Composer, or its autoload.php)`,
        `require 'sdk/php/autoload.php';`,
        ``,
        `$client = new \\A2E\\Client(['api_key' => '${apiKey}', 'base_url' => '${apiBaseUrl}']);`,
        `try {`,
        `    // One Idempotency-Key per listing, kept for every retry (429, 503, network errors)`,
        `    $listing = $client->listings->create(['amazonUrl' => '${EXAMPLE_URL}']);`,
        `    echo $listing->id, ' ', $listing->status, ' ', $listing->creditsRemaining, "\\n";`,
        `} catch (\\A2E\\Exception\\InsufficientCreditsException $e) {`,
        `    echo "Buy more credits\\n";`,
        `}`,
      ].join('\n'),
    },
    {
      id: 'go',
      label: 'Go',
      code: [
        `// Go with the SDK (module github.com/a2e-automation/app/sdk/go, folder sdk/go)`,
        `package main`,
        ``,
        `import (`,
        `\t"context"`,
        `\t"errors"`,
        `\t"fmt"`,
        `\t"log"`,
        ``,
        `\ta2e "github.com/a2e-automation/app/sdk/go"`,
        `)`,
        ``,
        `func main() {`,
        `\tc := a2e.NewClient("${apiKey}", a2e.WithBaseURL("${apiBaseUrl}"))`,
        `\t// One Idempotency-Key per listing, kept for every retry (429, 503, network errors)`,
        `\tlisting, err := c.Listings.Create(context.Background(), a2e.CreateListingParams{AmazonURL: "${EXAMPLE_URL}"})`,
        `\tif errors.Is(err, a2e.ErrInsufficientCredits) {`,
        `\t\tlog.Fatal("Buy more credits")`,
        `\t} else if err != nil {`,
        `\t\tlog.Fatal(err)`,
        `\t}`,
        `\tfmt.Println(listing.ID, listing.Status)`,
        `\t// Nil when a lost answer was resolved by reading the listing back`,
        `\tif listing.CreditsRemaining != nil {`,
        `\t\tfmt.Println("credits left:", *listing.CreditsRemaining)`,
        `\t}`,
        `}`,
      ].join('\n'),
    },
  ];
}
