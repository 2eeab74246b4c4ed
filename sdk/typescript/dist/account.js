/** `client.account`: the account the API key belongs to. */
export class AccountResource {
    #transport;
    /** Made by {@link Client}. */
    constructor(transport) {
        this.#transport = transport;
    }
    /** The account's email, balance and standing (free). */
    retrieve() {
        return this.#transport.request({ method: "GET", path: "/v1/account" });
    }
}
