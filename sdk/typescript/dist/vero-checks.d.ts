import { type Transport } from "./transport.js";
import type { CreateListingOptions, CreateVeroCheckParams, VeroCheck, WithRateLimit } from "./types.js";
/** `client.veroChecks`: checks of a brand against the VeRO protected-brand list, 1 credit each. */
export declare class VeroChecksResource {
    #private;
    /** Made by {@link Client}. */
    constructor(transport: Transport);
    /**
     * Checks a brand (`POST /v1/vero-checks`), for 1 credit. The request carries an `Idempotency-Key`
     * (the one given, or a fresh UUID) and the same body on every retry, so it is charged at most once.
     * A check has no read-back: a `commit_outcome_unknown` that outlasts the retries is thrown
     * (`outcomeUnknown: true`); sending the same key again within the 24 h replay window answers the
     * first outcome or runs the check once. The result and every error carry the key.
     */
    create(params: CreateVeroCheckParams, options?: CreateListingOptions): Promise<VeroCheck & WithRateLimit>;
}
