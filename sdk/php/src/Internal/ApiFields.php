<?php

declare(strict_types=1);

namespace A2E\Internal;

/**
 * json_encode() of a result: the API's fields, without the rate limit of the
 * answer that carried it, and with mode only in test mode, as the API
 * answers it.
 *
 * @internal
 */
trait ApiFields
{
    public function jsonSerialize(): array
    {
        $fields = get_object_vars($this);
        unset($fields['rateLimit']);
        if (array_key_exists('mode', $fields) && $fields['mode'] === null) {
            unset($fields['mode']);
        }
        return $fields;
    }
}
