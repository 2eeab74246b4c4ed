<?php

declare(strict_types=1);

namespace A2E\Exception;

/** malformed_payload: the signed body is not an event {"id", "type", "createdAt", "data": {…}}. */
class WebhookPayloadException extends WebhookVerificationException
{
}
