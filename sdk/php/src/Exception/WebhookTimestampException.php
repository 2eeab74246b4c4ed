<?php

declare(strict_types=1);

namespace A2E\Exception;

/** timestamp_outside_tolerance: the signature matches, but t is further from now than the tolerance. */
class WebhookTimestampException extends WebhookVerificationException
{
}
