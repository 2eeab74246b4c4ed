<?php

declare(strict_types=1);

namespace A2E\Service;

use A2E\Account;
use A2E\Exception\A2EException;
use A2E\Internal\Transport;

/** The account's credits and standing. Reached as $client->account. */
class AccountService
{
    /** @internal built by the Client */
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * The account's balance and standing (free).
     *
     * @throws A2EException
     */
    public function retrieve(): Account
    {
        $result = $this->transport->request('GET', '/v1/account');
        return Account::fromApi($result->data, $result->rateLimit);
    }
}
