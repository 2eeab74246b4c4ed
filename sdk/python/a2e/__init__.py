"""Client for the A2E desktop API (``/v1``), standard library only.

    import a2e

    client = a2e.Client(api_key="...", base_url="https://api.example.com")
    listing = client.listings.create(amazon_url="https://www.amazon.com/dp/B08N5WRWNW")
    print(listing.id, listing.credits_remaining)

Every error is an ``a2e.A2EError``; see README.md for the kinds, retries and
idempotency.
"""

from ._client import AccountResource, Client, Listings, VeroChecks
from ._errors import (
    A2EError,
    APIConnectionError,
    APIError,
    AuthenticationError,
    IdempotencyError,
    InsufficientCreditsError,
    InvalidRequestError,
    NotFoundError,
    RateLimitError,
    ServiceUnavailableError,
    SpendingFrozenError,
    SpendLimit,
    SpendLimitReachedError,
    WebhookHeaderError,
    WebhookPayloadError,
    WebhookSignatureError,
    WebhookTimestampError,
    WebhookVerificationError,
)
from ._models import Account, Listing, ListingPage, RateLimit, VeroCheck
from ._version import __version__
from ._webhooks import DEFAULT_WEBHOOK_TOLERANCE, WEBHOOK_SIGNATURE_HEADER, WebhookEvent, verify_webhook

__all__ = [
    "A2EError",
    "APIConnectionError",
    "APIError",
    "Account",
    "AccountResource",
    "AuthenticationError",
    "Client",
    "DEFAULT_WEBHOOK_TOLERANCE",
    "IdempotencyError",
    "InsufficientCreditsError",
    "InvalidRequestError",
    "Listing",
    "ListingPage",
    "Listings",
    "NotFoundError",
    "RateLimit",
    "RateLimitError",
    "ServiceUnavailableError",
    "SpendLimit",
    "SpendLimitReachedError",
    "SpendingFrozenError",
    "VeroCheck",
    "VeroChecks",
    "WEBHOOK_SIGNATURE_HEADER",
    "WebhookEvent",
    "WebhookHeaderError",
    "WebhookPayloadError",
    "WebhookSignatureError",
    "WebhookTimestampError",
    "WebhookVerificationError",
    "__version__",
    "verify_webhook",
]
