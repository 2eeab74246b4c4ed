<?php

declare(strict_types=1);

namespace A2E\Exception;

/** 422 idempotency_key_reused: the Idempotency-Key was used with another request. */
class IdempotencyException extends A2EException
{
}
