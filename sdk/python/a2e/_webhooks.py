"""verify_webhook: checks a webhook delivery's A2E-Signature and returns its event."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Dict, List, Optional, Tuple, Union

from ._errors import WebhookHeaderError, WebhookPayloadError, WebhookSignatureError, WebhookTimestampError
from ._models import parse_timestamp

#: The header a webhook delivery is signed in.
WEBHOOK_SIGNATURE_HEADER = "A2E-Signature"

#: How many seconds a delivery's signed time may be from now, either way, by default.
DEFAULT_WEBHOOK_TOLERANCE = 300

_T = re.compile(r"[0-9]{1,15}")
_V1 = re.compile(r"[0-9a-fA-F]{64}")


@dataclass(frozen=True)
class WebhookEvent:
    """The body of a webhook delivery.

    Attributes:
        id: the event's id, the same on every attempt and resend (handle each id once).
        type: the event's type, such as ``"credits.granted"``.
        created_at: when the event happened in the account's ledger (timezone-aware).
        data: the type's fields (see the webhooks guide).
    """

    id: str
    type: str
    created_at: datetime
    data: Dict[str, Any]


def verify_webhook(
    payload: Union[bytes, str],
    header: Optional[str],
    secret: str,
    tolerance: float = DEFAULT_WEBHOOK_TOLERANCE,
    *,
    now: Optional[float] = None,
) -> WebhookEvent:
    """Checks a webhook delivery and returns its event.

    Args:
        payload: the request body exactly as received (bytes, or str sent as
            UTF-8), before any JSON decoding.
        header: the ``A2E-Signature`` header, ``t=<unix seconds>,v1=<hex
            HMAC-SHA256 of "<t>.<body>">``, with two ``v1`` while a rolled
            secret's old one is still valid (any one matching is enough).
        secret: the endpoint's signing secret (``whsec_…``); the HMAC key is
            the whole string's UTF-8 bytes.
        tolerance: seconds the signed time may be from now, either way.
        now: the current Unix time (default the clock's).

    Raises:
        WebhookSignatureError, WebhookTimestampError, WebhookHeaderError,
        WebhookPayloadError: all ``WebhookVerificationError``; the signature
            is checked (in constant time) before the time.
        ValueError: an empty secret, or a tolerance that is not positive.
    """
    if not isinstance(secret, str) or secret == "":
        raise ValueError("verify_webhook: the secret is empty")
    if not tolerance > 0:
        raise ValueError("verify_webhook: the tolerance must be a positive number of seconds")
    body = payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)
    t, signatures = _parse_header(header or "")
    expected = hmac.new(secret.encode("utf-8"), f"{t}.".encode("ascii") + body, hashlib.sha256).digest()
    matched = False
    for signature in signatures:
        matched = hmac.compare_digest(signature, expected) or matched
    if not matched:
        raise WebhookSignatureError(
            "No v1 signature matches the body and timestamp with this secret", code="signature_mismatch"
        )
    age = abs(int(time.time() if now is None else now) - t)
    if age > tolerance:
        raise WebhookTimestampError(
            f"t={t} is {age} s from now, over the tolerance of {tolerance} s", code="timestamp_outside_tolerance"
        )
    return _parse_event(body)


def _parse_header(header: str) -> Tuple[int, List[bytes]]:
    """The header's t and its v1 signatures, decoded; other schemes are ignored."""

    def malformed(message: str) -> WebhookHeaderError:
        return WebhookHeaderError(message, code="malformed_header")

    if header.strip() == "":
        raise malformed("The A2E-Signature header is empty")
    t: Optional[int] = None
    signatures: List[bytes] = []
    for part in header.split(","):
        key, eq, value = part.strip().partition("=")
        if not eq:
            raise malformed("A part of the A2E-Signature header is not key=value")
        if key == "t":
            if t is not None:
                raise malformed("t is given twice")
            if not _T.fullmatch(value):
                raise malformed("t is not Unix seconds")
            t = int(value)
        elif key == "v1":
            if not _V1.fullmatch(value):
                raise malformed("A v1 is not 64 hex digits")
            signatures.append(bytes.fromhex(value))
    if t is None:
        raise malformed("The A2E-Signature header has no t")
    if not signatures:
        raise malformed("The A2E-Signature header has no v1 signature")
    return t, signatures


def _parse_event(body: bytes) -> WebhookEvent:
    """The event of a verified body."""

    def malformed(message: str) -> WebhookPayloadError:
        return WebhookPayloadError(message, code="malformed_payload")

    try:
        event = json.loads(body.decode("utf-8"))
    except ValueError as e:  # JSONDecodeError and UnicodeDecodeError
        raise malformed("The body is not JSON") from e
    if not isinstance(event, dict):
        raise malformed("The body is not a JSON object")
    id_, type_, created_at, data = (event.get(k) for k in ("id", "type", "createdAt", "data"))
    if not isinstance(id_, str) or not id_ or not isinstance(type_, str) or not type_ or not isinstance(created_at, str):
        raise malformed("The body lacks id, type or createdAt")
    try:
        when = parse_timestamp(created_at)
    except ValueError as e:
        raise malformed("createdAt is not an RFC 3339 time") from e
    if not isinstance(data, dict):
        raise malformed("data is not a JSON object")
    return WebhookEvent(id=id_, type=type_, created_at=when, data=data)
