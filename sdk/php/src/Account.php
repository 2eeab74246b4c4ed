<?php

declare(strict_types=1);

namespace A2E;

use A2E\Internal\ApiFields;

/** The account's credits and standing. json_encode() gives the API's field names. */
final class Account implements \JsonSerializable
{
    use ApiFields;

    /**
     * @param string      $email                  the seller's email
     * @param int         $creditsAvailable       credits that can be spent now
     * @param string      $subscriptionStatus     such as "active" or "inactive"
     * @param bool        $spendingFrozen         a payment dispute is open: creates answer SpendingFrozenException
     * @param int         $creditDebt             credits owed; the next grant repays them first
     * @param int         $monthlyCredits         the subscription's credits left
     * @param string|null $monthlyCreditsExpireAt RFC 3339 time they expire; null when there are none
     * @param int         $purchasedCredits       bought credit packs' credits left; they never expire
     * @param int         $otherCredits           promotional and support-granted credits left;
     *                                            monthly + purchased + other = creditsAvailable
     * @param RateLimit|null $rateLimit           the key's rate limit after this call
     * @param string|null $mode                   "test" for a test-mode key (the sandbox's test credits); null when live
     */
    public function __construct(
        public readonly string $email,
        public readonly int $creditsAvailable,
        public readonly string $subscriptionStatus,
        public readonly bool $spendingFrozen,
        public readonly int $creditDebt,
        public readonly int $monthlyCredits,
        public readonly ?string $monthlyCreditsExpireAt,
        public readonly int $purchasedCredits,
        public readonly int $otherCredits,
        public readonly ?RateLimit $rateLimit = null,
        public readonly ?string $mode = null,
    ) {
    }

    /** @internal the account of an API answer */
    public static function fromApi(array $data, ?RateLimit $rateLimit = null): self
    {
        return new self(
            (string) ($data['email'] ?? ''),
            (int) ($data['creditsAvailable'] ?? 0),
            (string) ($data['subscriptionStatus'] ?? ''),
            (bool) ($data['spendingFrozen'] ?? false),
            (int) ($data['creditDebt'] ?? 0),
            (int) ($data['monthlyCredits'] ?? 0),
            isset($data['monthlyCreditsExpireAt']) ? (string) $data['monthlyCreditsExpireAt'] : null,
            (int) ($data['purchasedCredits'] ?? 0),
            (int) ($data['otherCredits'] ?? 0),
            $rateLimit,
            isset($data['mode']) ? (string) $data['mode'] : null,
        );
    }
}
