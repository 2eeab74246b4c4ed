<?php

declare(strict_types=1);

namespace A2E\Service;

use A2E\Exception\A2EException;
use A2E\Internal\IdempotencyKey;
use A2E\Internal\Transport;
use A2E\VeroCheck;

/** Checks of brands against the VeRO protected-brand list (1 credit each). Reached as $client->veroChecks. */
class VeroChecksService
{
    /** @internal built by the Client */
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * Checks a brand (POST /v1/vero-checks, 1 credit).
     *
     * Every attempt sends the same Idempotency-Key and the same body bytes, so
     * retries never charge twice. A check has no read-back: a
     * commit_outcome_unknown that outlasts the retries is thrown
     * (ServiceUnavailableException with isOutcomeUnknown()); sending the same
     * key again within the 24 h replay window answers the first outcome or
     * runs the check once.
     *
     * @param array{brand: string}            $params  the request body: brand, 1 to 100 characters once trimmed
     * @param array{idempotency_key?: string} $options the key to send (default a fresh UUID v4)
     * @throws A2EException every exception carries the key in getIdempotencyKey()
     * @throws \InvalidArgumentException on an unknown option or a key that is not a non-empty string
     */
    public function create(array $params, array $options = []): VeroCheck
    {
        $key = IdempotencyKey::of($options);
        $body = json_encode($params, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        $result = $this->transport->request('POST', '/v1/vero-checks', body: $body, idempotencyKey: $key);
        return VeroCheck::fromApi($result->data, $key, $result->rateLimit);
    }
}
