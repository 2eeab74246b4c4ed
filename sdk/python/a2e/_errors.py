"""The errors the SDK raises: one class per kind of failure, all under A2EError."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Type

# The code of a 503 after which the charge may or may not have happened.
COMMIT_OUTCOME_UNKNOWN = "commit_outcome_unknown"


class A2EError(Exception):
    """Base of every error the SDK raises.

    Attributes:
        message: English for people; it may change, branch on ``code``.
        code: the API's stable snake_case code (``"insufficient_credits"``), or
            None when there was no answer or it carried no code.
        status: the HTTP status, or None when there was no answer.
        request_id: the server's id of the request (quote it to support).
        idempotency_key: the ``Idempotency-Key`` the failed call sent, so a
            pending operation can be stored and resolved later; None otherwise.
        retry_after: seconds the answer asked to wait before trying again
            (``Retry-After``, on 429 and 503), or None.
    """

    def __init__(
        self,
        message: str,
        *,
        code: Optional[str] = None,
        status: Optional[int] = None,
        request_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.request_id = request_id
        self.idempotency_key = idempotency_key
        self.retry_after = retry_after

    def __str__(self) -> str:
        details = [str(self.status) if self.status is not None else None, self.code]
        if self.request_id:
            details.append("request " + self.request_id)
        shown = ", ".join(d for d in details if d)
        return f"{self.message} ({shown})" if shown else self.message


class APIConnectionError(A2EError):
    """No HTTP answer: the connection failed, was cut, or an attempt timed out.

    Named so as not to shadow the builtin ``ConnectionError``.
    """


class APIError(A2EError):
    """An HTTP error answer of no more precise kind (500, 502, a redirect, ...)."""


class AuthenticationError(A2EError):
    """401: the API key is missing, or is not the account's current one."""


class InsufficientCreditsError(A2EError):
    """402: no credits left.

    Attributes:
        credits_remaining: the balance the answer gave (0).
    """

    def __init__(self, message: str, *, credits_remaining: Optional[int] = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.credits_remaining = credits_remaining


@dataclass(frozen=True)
class SpendLimit:
    """The spend limit a call was refused by.

    Attributes:
        period: ``"daily"`` (credits per UTC day) or ``"monthly"`` (per billing month).
        limit: the limit, in credits.
        spent: credits spent in the limit's current period.
        resets_at: when the period ends and spending may resume (RFC 3339, UTC).
    """

    period: str
    limit: int
    spent: int
    resets_at: str


class SpendLimitReachedError(A2EError):
    """402 ``spend_limit_reached``: a daily or monthly spend limit the seller set is reached.

    Attributes:
        spend_limit: which limit, its credits, what its period spent, and when it resets.
    """

    def __init__(self, message: str, *, spend_limit: Optional[SpendLimit] = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.spend_limit = spend_limit


class SpendingFrozenError(A2EError):
    """403: a payment dispute is open, so spending is paused."""


class NotFoundError(A2EError):
    """404: no such listing of this account (or no such route)."""


class InvalidRequestError(A2EError):
    """400, 405, 413 or 415: a field, the JSON, a header or the method is wrong.

    Attributes:
        errors: the problem of each field (``{"amazonUrl": "..."}``), empty when
            the answer named none.
    """

    def __init__(self, message: str, *, errors: Optional[Dict[str, str]] = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.errors: Dict[str, str] = dict(errors or {})


class IdempotencyError(A2EError):
    """422: the Idempotency-Key was already used with a different request."""


class RateLimitError(A2EError):
    """429: past the key's rate limit, and the retries ran out; see ``retry_after``."""


class ServiceUnavailableError(A2EError):
    """503: the service was briefly unavailable, and the retries ran out; see ``retry_after``."""

    @property
    def outcome_unknown(self) -> bool:
        """True when the charge may or may not have happened (``commit_outcome_unknown``).

        Keep ``idempotency_key`` with the pending operation and resolve it later
        with ``client.listings.find_by_idempotency_key``. False means nothing was done.
        """
        return self.code == COMMIT_OUTCOME_UNKNOWN


class WebhookVerificationError(A2EError):
    """``verify_webhook`` refused a delivery. ``code`` says why, in every SDK's
    words: ``signature_mismatch``, ``timestamp_outside_tolerance``,
    ``malformed_header`` or ``malformed_payload``; each has its subclass.
    ``status`` and ``request_id`` are None. It never holds the secret."""


class WebhookSignatureError(WebhookVerificationError):
    """``signature_mismatch``: no ``v1`` of the header is the HMAC of this body and ``t`` with this secret."""


class WebhookTimestampError(WebhookVerificationError):
    """``timestamp_outside_tolerance``: the signature matches, but ``t`` is further from now than the tolerance."""


class WebhookHeaderError(WebhookVerificationError):
    """``malformed_header``: the ``A2E-Signature`` header is not ``t=<unix seconds>,v1=<64 hex digits>[,v1=…]``."""


class WebhookPayloadError(WebhookVerificationError):
    """``malformed_payload``: the signed body is not an event ``{"id", "type", "createdAt", "data": {…}}``."""


_CLASS_OF_CODE: Dict[str, Type[A2EError]] = {
    "invalid_request": InvalidRequestError,
    "method_not_allowed": InvalidRequestError,
    "request_too_large": InvalidRequestError,
    "unsupported_media_type": InvalidRequestError,
    "api_key_missing": AuthenticationError,
    "api_key_invalid": AuthenticationError,
    "unauthenticated": AuthenticationError,
    "insufficient_credits": InsufficientCreditsError,
    "spend_limit_reached": SpendLimitReachedError,
    "spending_frozen": SpendingFrozenError,
    "not_found": NotFoundError,
    "idempotency_key_reused": IdempotencyError,
    "rate_limited": RateLimitError,
    "service_unavailable": ServiceUnavailableError,
    COMMIT_OUTCOME_UNKNOWN: ServiceUnavailableError,
}

# For an answer without a known code, such as a proxy's.
_CLASS_OF_STATUS: Dict[int, Type[A2EError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    402: InsufficientCreditsError,
    404: NotFoundError,
    405: InvalidRequestError,
    413: InvalidRequestError,
    415: InvalidRequestError,
    429: RateLimitError,
    503: ServiceUnavailableError,
}


def error_of_answer(
    status: int,
    body: Dict[str, Any],
    *,
    request_id: Optional[str],
    retry_after: Optional[float],
    idempotency_key: Optional[str],
) -> A2EError:
    """The error for an HTTP error answer, whose JSON body is ``body`` ({} if none)."""
    code = body.get("code") if isinstance(body.get("code"), str) else None
    cls = _CLASS_OF_CODE.get(code or "") or _CLASS_OF_STATUS.get(status, APIError)
    if status == 422:  # every SDK: a reused key, else the request is wrong as sent
        cls = IdempotencyError if code == "idempotency_key_reused" else InvalidRequestError
    elif not 400 <= status < 600:  # a redirect, or another answer that is neither success nor error
        cls = APIError
    extra: Dict[str, Any] = {}
    if cls is InsufficientCreditsError:
        extra["credits_remaining"] = body.get("creditsRemaining")
    elif cls is SpendLimitReachedError:
        extra["spend_limit"] = SpendLimit(
            period=str(body.get("period") or ""),
            limit=int(body.get("limit") or 0),
            spent=int(body.get("spent") or 0),
            resets_at=str(body.get("resetsAt") or ""),
        )
    elif cls is InvalidRequestError:
        extra["errors"] = body.get("errors")
    return cls(
        body.get("message") or f"HTTP {status}",
        code=code,
        status=status,
        request_id=body.get("requestId") or request_id,
        idempotency_key=idempotency_key,
        retry_after=retry_after,
        **extra,
    )
