<?php

declare(strict_types=1);

namespace A2E\Internal;

use A2E\RateLimit;

/**
 * A successful answer: its JSON object and the rate limit its headers told.
 *
 * @internal
 */
final class Result
{
    public function __construct(
        public readonly array $data,
        public readonly ?RateLimit $rateLimit,
    ) {
    }
}
