<?php

declare(strict_types=1);

namespace A2E\Exception;

/** No HTTP answer: the connection failed or an attempt timed out, on every try. */
class ConnectionException extends A2EException
{
}
