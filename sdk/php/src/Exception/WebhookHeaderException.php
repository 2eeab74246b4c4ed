<?php

declare(strict_types=1);

namespace A2E\Exception;

/** malformed_header: the A2E-Signature header is not t=<unix seconds>,v1=<64 hex digits>[,v1=…]. */
class WebhookHeaderException extends WebhookVerificationException
{
}
