<?php

declare(strict_types=1);

namespace A2E\Exception;

/** 400, 405, 413, 415 or 422: the request is wrong; getFields() says which field when it is about one. */
class InvalidRequestException extends A2EException
{
    /** @param array<string, string> $fields */
    public function __construct(
        string $message,
        ?string $errorCode = null,
        ?int $status = null,
        ?string $requestId = null,
        ?string $idempotencyKey = null,
        private readonly array $fields = [],
    ) {
        parent::__construct($message, $errorCode, $status, $requestId, $idempotencyKey);
    }

    /** @return array<string, string> the problem of each field, by field name (the body's "errors") */
    public function getFields(): array
    {
        return $this->fields;
    }
}
