<?php

declare(strict_types=1);

namespace A2E\Exception;

/** An HTTP error of no more precise kind, such as 500 internal_error. */
class ApiException extends A2EException
{
}
