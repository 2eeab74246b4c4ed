<?php

declare(strict_types=1);

namespace A2E\Exception;

/**
 * \A2E\Webhook::verify() refused a delivery. getErrorCode() says why, in every
 * SDK's words: signature_mismatch, timestamp_outside_tolerance,
 * malformed_header or malformed_payload; each has its subclass. getStatus()
 * and getRequestId() are null. It never holds the secret.
 */
class WebhookVerificationException extends A2EException
{
}
