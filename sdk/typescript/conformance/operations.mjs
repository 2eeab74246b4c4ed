// The conformance runner's one call (sdk/conformance/README.md): performs an operation through the SDK's
// public surface and answers the line the runner prints. runner.mjs reads the operation and prints the line;
// test/cases.test.mjs calls it in process against the case-driven fake.
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

/** Whether op names an operation the runner knows. */
export function known(op) {
  return Object.hasOwn(operations, op.op);
}

/**
 * Performs op against baseUrl with apiKey and answers the line as the protocol writes it (parse it back from
 * JSON to compare). Throws only what is not an A2EError.
 */
export async function perform(op, { apiKey, baseUrl }) {
  const client = new Client({ apiKey, baseUrl, maxRetries: op.maxRetries });
  try {
    const line = await operations[op.op](client, op);
    // The result's rate limit (listAll's: none, its pages are not kept), beside it as the protocol has it.
    const rateLimit = line.result?.rateLimit ?? undefined;
    return JSON.stringify({ ok: true, ...line, rateLimit });
  } catch (err) {
    if (!(err instanceof A2EError)) {
      throw err;
    }
    return JSON.stringify({ ok: false, error: errorLine(err) });
  }
}
