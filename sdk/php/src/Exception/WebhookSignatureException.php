<?php

declare(strict_types=1);

namespace A2E\Exception;

/** signature_mismatch: no v1 of the header is the HMAC of this body and t with this secret. */
class WebhookSignatureException extends WebhookVerificationException
{
}
