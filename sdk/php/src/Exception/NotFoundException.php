<?php

declare(strict_types=1);

namespace A2E\Exception;

/** 404: no such listing of this account (or no such route). */
class NotFoundException extends A2EException
{
}
