import type { Transport } from "./transport.js";
import type { Account, WithRateLimit } from "./types.js";

/** `client.account`: the account the API key belongs to. */
export class AccountResource {
  readonly #transport: Transport;

  /** Made by {@link Client}. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** The account's email, balance and standing (free). */
  retrieve(): Promise<Account & WithRateLimit> {
    return this.#transport.request<Account>({ method: "GET", path: "/v1/account" });
  }
}
