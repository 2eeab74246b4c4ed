<?php

declare(strict_types=1);

namespace A2E\Internal;

/**
 * json_encode() of a result: the API's fields, without the rate limit of the
 * answer that carried it.
 *
 * @internal
 */
trait ApiFields
{
    public function jsonSerialize(): array
    {
        $fields = get_object_vars($this);
        unset($fields['rateLimit']);
        return $fields;
    }
}
