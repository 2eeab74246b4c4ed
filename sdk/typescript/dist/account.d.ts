import type { Transport } from "./transport.js";
import type { Account, WithRateLimit } from "./types.js";
/** `client.account`: the account the API key belongs to. */
export declare class AccountResource {
    #private;
    /** Made by {@link Client}. */
    constructor(transport: Transport);
    /** The account's email, balance and standing (free). */
    retrieve(): Promise<Account & WithRateLimit>;
}
