"""What the API answers, as frozen dataclasses with Python's names and types."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Dict, Optional, Tuple

_TIMESTAMP = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)", re.IGNORECASE)


def parse_timestamp(text: str) -> datetime:
    """An RFC 3339 timestamp as the API writes it (``2025-01-02T03:04:05.123456Z``),
    timezone-aware; digits past the microsecond are dropped."""
    m = _TIMESTAMP.fullmatch(text)
    if m is None:
        raise ValueError(f"not an RFC 3339 timestamp: {text!r}")
    seconds, fraction, zone = m.groups()
    fraction = (fraction or "")[:6].ljust(6, "0")
    return datetime.fromisoformat(f"{seconds}.{fraction}{'+00:00' if zone.upper() == 'Z' else zone}")


@dataclass(frozen=True)
class RateLimit:
    """The API key's rate limit as the answer's ``X-RateLimit-*`` headers told it.

    Every result has it as ``rate_limit`` (None when the answer carried none),
    as Stripe's SDKs expose a response's headers.

    Attributes:
        limit: requests the key may make per minute (``X-RateLimit-Limit``).
        remaining: requests it may make right now, this one counted (``X-RateLimit-Remaining``).
        reset: when the whole allowance is back (``X-RateLimit-Reset``), timezone-aware;
            it refills continuously before then.
    """

    limit: int
    remaining: int
    reset: datetime


def _rate_limit() -> Any:
    """The ``rate_limit`` field of a result: set from the answer, left out of comparisons."""
    return field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Listing:
    """A listing request: an Amazon product queued to be copied to eBay.

    Attributes:
        id: the listing's id.
        asin: the product's ASIN.
        amazon_url: the product's canonical address (``https://www.amazon.com/dp/<asin>``).
        status: ``"queued"`` and later states.
        created_at: when it was requested (timezone-aware).
        credits_remaining: the balance right after the charge; only on the answer
            to ``create`` (on a replay, as it was then), else None.
        idempotency_key: the ``Idempotency-Key`` that created it, None if none was sent.
        request_id: the id of the request that created it and was charged.
        rate_limit: the key's rate limit after the call that answered it (None
            on the listings of a page).
        mode: ``"test"`` for a listing made in test mode (the sandbox); None for a live one.
    """

    id: str
    asin: str
    amazon_url: str
    status: str
    created_at: datetime
    credits_remaining: Optional[int] = None
    idempotency_key: Optional[str] = None
    request_id: Optional[str] = None
    rate_limit: Optional[RateLimit] = _rate_limit()
    mode: Optional[str] = None

    @classmethod
    def from_json(cls, data: Dict[str, Any], **overrides: Any) -> Listing:
        """The listing of an API object; ``overrides`` sets fields the object lacks."""
        fields: Dict[str, Any] = dict(
            id=data["id"],
            asin=data["asin"],
            amazon_url=data["amazonUrl"],
            status=data["status"],
            created_at=parse_timestamp(data["createdAt"]),
            credits_remaining=data.get("creditsRemaining"),
            idempotency_key=data.get("idempotencyKey"),
            request_id=data.get("requestId"),
            mode=data.get("mode"),
        )
        fields.update(overrides)
        return cls(**fields)


@dataclass(frozen=True)
class ListingPage:
    """A page of listings, newest first.

    Attributes:
        data: the listings of the page.
        next_cursor: pass it as ``cursor`` for the next page; None on the last one.
        rate_limit: the key's rate limit after this call.
    """

    data: Tuple[Listing, ...]
    next_cursor: Optional[str]
    rate_limit: Optional[RateLimit] = _rate_limit()

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> ListingPage:
        return cls(data=tuple(Listing.from_json(item) for item in data["data"]), next_cursor=data.get("nextCursor"))


@dataclass(frozen=True)
class Account:
    """The account's credits and standing, as the dashboard shows them.

    Attributes:
        email: the account's email address.
        credits_available: the credits that can be spent now.
        subscription_status: the subscription's status (``"inactive"``, ``"active"``, ``"cancelling"``, ``"cancelled"``).
        spending_frozen: a payment dispute is open: spending answers SpendingFrozenError.
        credit_debt: credits owed; the next grant repays them first.
        monthly_credits: the subscription's credits left.
        monthly_credits_expire_at: when the first of them expire; None when there are none.
        purchased_credits: bought credit packs' credits left; they never expire.
        other_credits: promotional and support-granted credits left. Monthly,
            purchased and other credits add up to ``credits_available``.
        mode: ``"test"`` for a test-mode key (the figures are the sandbox's test credits); None for a live one.
        rate_limit: the key's rate limit after this call.
    """

    email: str
    credits_available: int
    subscription_status: str
    spending_frozen: bool
    credit_debt: int
    monthly_credits: int
    monthly_credits_expire_at: Optional[datetime]
    purchased_credits: int
    other_credits: int
    mode: Optional[str] = None
    rate_limit: Optional[RateLimit] = _rate_limit()

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> Account:
        expire_at = data.get("monthlyCreditsExpireAt")
        return cls(
            email=data["email"],
            credits_available=data["creditsAvailable"],
            subscription_status=data["subscriptionStatus"],
            spending_frozen=data["spendingFrozen"],
            credit_debt=data["creditDebt"],
            monthly_credits=data["monthlyCredits"],
            monthly_credits_expire_at=parse_timestamp(expire_at) if expire_at else None,
            purchased_credits=data["purchasedCredits"],
            other_credits=data["otherCredits"],
            mode=data.get("mode"),
        )


@dataclass(frozen=True)
class VeroCheck:
    """The outcome of a check of a brand against the VeRO protected-brand list.

    Attributes:
        id: the check's id.
        brand: the brand as asked, trimmed and with inner whitespace collapsed.
        protected: whether the brand is on the VeRO protected-brand list.
        credits_remaining: the balance right after the charge (on a replay, as it was then).
        idempotency_key: the ``Idempotency-Key`` that was sent.
        rate_limit: the key's rate limit after this call.
        mode: ``"test"`` for a test-mode key (paid with a test credit); None for a live one.
    """

    id: str
    brand: str
    protected: bool
    credits_remaining: int
    idempotency_key: Optional[str] = None
    rate_limit: Optional[RateLimit] = _rate_limit()
    mode: Optional[str] = None

    @classmethod
    def from_json(cls, data: Dict[str, Any], **overrides: Any) -> VeroCheck:
        fields: Dict[str, Any] = dict(
            id=data["id"],
            brand=data["brand"],
            protected=data["protected"],
            credits_remaining=data["creditsRemaining"],
            mode=data.get("mode"),
        )
        fields.update(overrides)
        return cls(**fields)
