import { AccountResource } from "./account.js";
import { ListingsResource } from "./listings.js";
import { Transport } from "./transport.js";
import { VeroChecksResource } from "./vero-checks.js";
import type { ClientOptions } from "./types.js";

/**
 * The desktop API's client:
 *
 * ```ts
 * const client = new Client({ apiKey: process.env.A2E_API_KEY!, baseUrl: "https://api.example.com" });
 * const listing = await client.listings.create({ amazonUrl: "https://www.amazon.com/dp/B08N5WRWNW" });
 * ```
 *
 * Failed requests are retried (`maxRetries`, default 3) when that is safe, and every attempt times out
 * (`timeoutMs`, default 30 s). The API key is kept private: it never appears in an error, in
 * `util.inspect`, `JSON.stringify` or `String` of the client.
 */
export class Client {
  readonly listings: ListingsResource;
  readonly account: AccountResource;
  readonly veroChecks: VeroChecksResource;

  /** Throws a TypeError if an option is missing or out of range. */
  constructor(options: ClientOptions) {
    const transport = new Transport(options);
    this.listings = new ListingsResource(transport);
    this.account = new AccountResource(transport);
    this.veroChecks = new VeroChecksResource(transport);
  }
}
