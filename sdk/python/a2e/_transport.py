"""The HTTP layer: one call to the API, its retries, and its failures as errors."""

from __future__ import annotations

import dataclasses
import http.client
import json
import logging
import random
import re
import time
import urllib.parse
from dataclasses import dataclass
from datetime import datetime, timezone
from email.message import Message
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Dict, Optional, Tuple, TypeVar, cast

from ._errors import A2EError, APIConnectionError, APIError, error_of_answer
from ._models import RateLimit
from ._pool import ConnectionPool
from ._version import __version__

logger = logging.getLogger("a2e")

T = TypeVar("T")

RETRY_AFTER_CAP = 20.0  # seconds: a longer Retry-After is waited this long
_CHUNK = 64 * 1024  # bytes read at a time, so the attempt's deadline is checked as the body comes
BACKOFF_BASE = 0.5  # seconds: the first backoff's bound, doubled per retry
BACKOFF_CAP = 8.0  # seconds: the largest backoff bound

USER_AGENT = f"a2e-sdk-python/{__version__}"
# Retry-After in seconds: digits, optionally a dot and digits (sdk/conformance/retry-after.json).
_DECIMAL_SECONDS = re.compile(r"[0-9]+(\.[0-9]+)?")

_ALWAYS_RETRIED = frozenset({429, 503})
_RETRIED_WHEN_REPEATABLE = frozenset({500, 502, 504})


@dataclass(frozen=True)
class Request:
    """One call: its body is serialised once, so every retry sends the same bytes."""

    method: str
    path: str
    query: Optional[Dict[str, str]] = None
    body: Optional[bytes] = None
    idempotency_key: Optional[str] = None

    @property
    def repeatable(self) -> bool:
        """Whether sending it twice cannot do it twice: a read, or a keyed request."""
        return self.method == "GET" or self.idempotency_key is not None


@dataclass(frozen=True)
class Response:
    """A successful answer."""

    status: int
    headers: Message
    body: bytes
    idempotency_key: Optional[str] = None

    def parse(self, build: Callable[[Any], T]) -> T:
        """``build`` applied to the JSON body, with the answer's rate limit as its
        ``rate_limit``; an APIError if the body is not what it expects."""
        try:
            value = build(json.loads(self.body))
            if dataclasses.is_dataclass(value) and hasattr(value, "rate_limit"):
                value = cast(T, dataclasses.replace(cast(Any, value), rate_limit=rate_limit_of(self.headers)))
            return value
        except (ValueError, KeyError, TypeError) as exc:
            raise APIError(
                f"The answer could not be read: {exc!r}",
                status=self.status,
                request_id=self.headers.get("X-Request-ID"),
                idempotency_key=self.idempotency_key,
            ) from exc


def rate_limit_of(headers: Message) -> Optional[RateLimit]:
    """The ``X-RateLimit-*`` headers; None unless all three are whole numbers."""
    values = [(headers.get(f"X-RateLimit-{name}") or "").strip() for name in ("Limit", "Remaining", "Reset")]
    if not all(v.isdigit() and v.isascii() for v in values):
        return None
    limit, remaining, reset = (int(v) for v in values)
    return RateLimit(limit=limit, remaining=remaining, reset=datetime.fromtimestamp(reset, timezone.utc))


class Transport:
    """Sends requests with the API key, retrying what is safe to retry.

    Retried: no answer, 429 and 503; 500, 502 and 504 when the request is
    repeatable. The wait is ``Retry-After`` (capped) when given, else backoff
    with full jitter. Connections are kept alive and reused (``ConnectionPool``);
    a redirect is never followed (it is an APIError), so the API key never goes
    to the host it names.
    """

    def __init__(
        self, *, api_key: str, base_url: str, max_retries: int, timeout: float, sleep: Callable[[float], None]
    ) -> None:
        self._api_key = api_key
        self.base_url = base_url
        self.max_retries = max_retries
        self.timeout = timeout
        self._sleep = sleep
        self.pool = ConnectionPool(base_url, timeout)

    def __repr__(self) -> str:
        return f"Transport(base_url={self.base_url!r})"

    def request(self, request: Request, *, max_retries: Optional[int] = None) -> Response:
        """The successful (2xx) answer to ``request``, after at most ``max_retries``
        retries (default: the client's).

        Raises the A2EError of the last failure; any other status, a redirect
        included, is an error.
        """
        retries = self.max_retries if max_retries is None else max_retries
        attempt = 0
        while True:
            try:
                status, headers, body = self._send(request)
            except APIConnectionError as exc:
                if attempt >= retries:
                    raise
                failure, retry_after = exc.message, None
            else:
                if 200 <= status < 300:
                    return Response(status, headers, body, request.idempotency_key)
                retryable = status in _ALWAYS_RETRIED or (status in _RETRIED_WHEN_REPEATABLE and request.repeatable)
                if attempt >= retries or not retryable:
                    raise _error(status, headers, body, request)
                failure, retry_after = f"HTTP {status}", _retry_after(headers)
            delay = _delay(attempt, retry_after)
            logger.info(
                "%s %s: %s; retry %d of %d in %.2fs",
                request.method, request.path, failure, attempt + 1, retries, delay,
            )
            self._sleep(delay)
            attempt += 1

    def pause(self, retry_after: Optional[float]) -> None:
        """Waits as before a first retry (a COMMIT whose answer was cut may still be landing)."""
        self._sleep(_delay(0, retry_after))

    def _send(self, request: Request) -> Tuple[int, Message, bytes]:
        """One attempt: the answer's status, headers and body, whatever the status.

        The socket timeout bounds each socket operation; the attempt as a whole
        is bounded too: once ``timeout`` seconds have passed since it began, it
        is an APIConnectionError (checked after the answer's head and each chunk
        of its body, so a stalled read adds at most one more ``timeout``).
        """
        deadline = time.monotonic() + self.timeout
        path = request.path
        if request.query:
            path += "?" + urllib.parse.urlencode(request.query)
        headers = {"X-API-Key": self._api_key, "Accept": "application/json", "User-Agent": USER_AGENT}
        if request.body is not None:
            headers["Content-Type"] = "application/json"
        if request.idempotency_key is not None:
            headers["Idempotency-Key"] = request.idempotency_key
        try:
            return self.pool.request(
                request.method, path, request.body, headers, lambda answer: _read_within(answer, deadline, self.timeout)
            )
        except (OSError, http.client.HTTPException) as exc:
            reason = getattr(exc, "reason", None) or str(exc) or type(exc).__name__
            raise APIConnectionError(
                f"{request.method} {self.base_url}{request.path} got no answer: {reason}",
                idempotency_key=request.idempotency_key,
            ) from exc


def _error(status: int, headers: Message, body: bytes, request: Request) -> A2EError:
    try:
        data: Any = json.loads(body)
    except ValueError:
        data = None
    return error_of_answer(
        status,
        cast(Dict[str, Any], data) if isinstance(data, dict) else {},
        request_id=headers.get("X-Request-ID"),
        retry_after=_retry_after(headers),
        idempotency_key=request.idempotency_key,
    )


def _read_within(answer: Any, deadline: float, timeout: float) -> bytes:
    """The answer's body, read in chunks; a TimeoutError once ``deadline`` has passed."""
    chunks = []
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the attempt took more than {timeout:g}s")
        chunk = answer.read1(_CHUNK) if hasattr(answer, "read1") else answer.read(_CHUNK)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _retry_after(headers: Message, now: Optional[datetime] = None) -> Optional[float]:
    """``Retry-After`` in seconds, from whole or decimal seconds (``1.5``) or an
    HTTP date; None when absent, malformed (``1e3``, ``.5``), 0, negative or
    past (then the backoff applies). The shared vectors:
    sdk/conformance/retry-after.json."""
    value = (headers.get("Retry-After") or "").strip()
    if not value:
        return None
    if _DECIMAL_SECONDS.fullmatch(value) and value.isascii():
        seconds = float(value)
    else:
        try:
            at = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if at is None:
            return None
        if at.tzinfo is None:
            at = at.replace(tzinfo=timezone.utc)
        seconds = (at - (now or datetime.now(timezone.utc))).total_seconds()
    if seconds != seconds or seconds <= 0:  # NaN, 0 or past: as absent
        return None
    return seconds


def _delay(attempt: int, retry_after: Optional[float]) -> float:
    """Seconds to wait before retry ``attempt + 1``."""
    if retry_after is not None and retry_after > 0:
        return min(retry_after, RETRY_AFTER_CAP)
    return random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2**attempt))
