// The conformance runner (sdk/conformance/README.md): performs the one operation read as JSON from
// standard input through the SDK's public surface, against A2E_BASE_URL with A2E_API_KEY, and prints
// one JSON line. Exits 0 whenever it printed a line; run `npm run build` first.
import { A2EError, Client } from "../dist/index.js";

const operations = {
  create: async (client, op) => {
    const options = { idempotencyKey: op.idempotencyKey };
    const listing = await client.listings.create({ amazonUrl: op.amazonUrl }, options);
    return { result: listing, idempotencyKey: listing.idempotencyKey };
  },
  veroCheck: async (client, op) => {
    const check = await client.veroChecks.create({ brand: op.brand }, { idempotencyKey: op.idempotencyKey });
    return { result: check, idempotencyKey: check.idempotencyKey };
  },
  retrieve: async (client, op) => ({ result: await client.listings.retrieve(op.id) }),
  list: async (client, { limit, cursor, idempotencyKey }) => ({
    result: await client.listings.list({ limit, cursor, idempotencyKey }),
  }),
  listAll: async (client, { limit }) => {
    const data = [];
    for await (const listing of client.listings.listAll({ limit })) {
      data.push(listing);
    }
    return { result: { data } };
  },
  findByIdempotencyKey: async (client, op) => ({ result: await client.listings.findByIdempotencyKey(op.idempotencyKey) }),
  account: async (client) => ({ result: await client.account.retrieve() }),
};

/** The error as the protocol writes it: every field, null where the error has none. */
function errorLine(err) {
  return {
    class: err.name,
    code: err.code,
    status: err.status,
    requestId: err.requestId,
    message: err.message,
    idempotencyKey: err.idempotencyKey,
    retryAfter: err.retryAfter ?? null,
    outcomeUnknown: err.outcomeUnknown ?? false,
    creditsRemaining: err.creditsRemaining ?? null,
    spendLimit: err.spendLimit ?? null,
  };
}

let input = "";
for await (const chunk of process.stdin) {
  input += chunk;
}
const op = JSON.parse(input);
const perform = operations[op.op];
if (perform === undefined) {
  console.error(`runner: unknown op ${JSON.stringify(op.op)}`);
  process.exit(2);
}
const client = new Client({
  apiKey: process.env.A2E_API_KEY,
  baseUrl: process.env.A2E_BASE_URL,
  maxRetries: op.maxRetries,
});
try {
  const line = await perform(client, op);
  // The result's rate limit (listAll's: none, its pages are not kept), beside it as the protocol has it.
  const rateLimit = line.result?.rateLimit ?? undefined;
  console.log(JSON.stringify({ ok: true, ...line, rateLimit }));
} catch (err) {
  if (!(err instanceof A2EError)) {
    throw err;
  }
  console.log(JSON.stringify({ ok: false, error: errorLine(err) }));
}
