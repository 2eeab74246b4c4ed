// The conformance runner (sdk/conformance/README.md): performs the one operation read as JSON from
// standard input through the SDK's public surface, against A2E_BASE_URL with A2E_API_KEY, and prints
// one JSON line. Exits 0 whenever it printed a line; run `npm run build` first.
import { known, perform } from "./operations.mjs";

let input = "";
for await (const chunk of process.stdin) {
  input += chunk;
}
const op = JSON.parse(input);
if (!known(op)) {
  console.error(`runner: unknown op ${JSON.stringify(op.op)}`);
  process.exit(2);
}
console.log(await perform(op, { apiKey: process.env.A2E_API_KEY, baseUrl: process.env.A2E_BASE_URL }));
