<?php

declare(strict_types=1);

namespace A2E\Exception;

/** 403 spending_frozen: a payment dispute is open, spending is paused. */
class SpendingFrozenException extends A2EException
{
}
