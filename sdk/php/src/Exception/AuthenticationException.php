<?php

declare(strict_types=1);

namespace A2E\Exception;

/** 401: no API key, or a key that is not the account's current one. */
class AuthenticationException extends A2EException
{
}
