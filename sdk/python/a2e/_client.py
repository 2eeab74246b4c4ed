"""The client and its resources: ``client.listings`` and ``client.account``."""

from __future__ import annotations

import json
import time
import urllib.parse
import uuid
from typing import Callable, Dict, Optional

from ._errors import A2EError, ServiceUnavailableError
from ._models import Account, Listing, ListingPage
from ._transport import Request, Transport


class Listings:
    """Listing requests: ``client.listings``."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(self, amazon_url: str, *, idempotency_key: Optional[str] = None) -> Listing:
        """Requests a listing of an Amazon product; charges 1 credit.

        ``idempotency_key`` (default: a fresh UUID v4) is sent on every retry
        with the same body, so the listing is charged at most once; the result
        and any error carry it in ``idempotency_key``. If the last retry still
        left the outcome unknown, the listing is looked up by the key once:
        found, it is returned; otherwise the ServiceUnavailableError is raised
        with ``outcome_unknown`` True.

        Raises:
            InsufficientCreditsError, SpendingFrozenError, InvalidRequestError,
            IdempotencyError, AuthenticationError, RateLimitError,
            ServiceUnavailableError, APIError, APIConnectionError.
        """
        if idempotency_key is not None and (not isinstance(idempotency_key, str) or idempotency_key == ""):
            raise ValueError("idempotency_key must be a non-empty string; leave it out to have one made")
        key = idempotency_key if idempotency_key is not None else str(uuid.uuid4())
        body = json.dumps({"amazonUrl": amazon_url}).encode()
        try:
            response = self._transport.request(Request("POST", "/v1/listings", body=body, idempotency_key=key))
        except ServiceUnavailableError as exc:
            if not exc.outcome_unknown:
                raise
            self._transport.pause(exc.retry_after)
            found = self._read_back(key)
            if found is None:
                raise
            return found
        # A replay names the request that was charged; a first answer is that request.
        request_id = response.headers.get("Original-Request-Id") or response.headers.get("X-Request-ID")
        return response.parse(lambda data: Listing.from_json(data, idempotency_key=key, request_id=request_id))

    def _read_back(self, idempotency_key: str) -> Optional[Listing]:
        """The listing the key created, or None if there is none or the lookup failed too.

        One request, not retried: the retries of the create are spent.
        """
        try:
            page = self._list({"idempotencyKey": idempotency_key}, max_retries=0)
        except A2EError:
            return None
        return page.data[0] if page.data else None

    def retrieve(self, id: str) -> Listing:
        """One of the account's listings, by id (free). Raises NotFoundError if there is none."""
        if not id:
            raise ValueError("id must not be empty")
        response = self._transport.request(Request("GET", "/v1/listings/" + urllib.parse.quote(id, safe="")))
        return response.parse(Listing.from_json)

    def list(
        self, *, limit: Optional[int] = None, cursor: Optional[str] = None, idempotency_key: Optional[str] = None
    ) -> ListingPage:
        """A page of the account's listings, newest first (free).

        Args:
            limit: listings per page, 1 to 100 (the server's default: 20).
            cursor: the previous page's ``next_cursor``.
            idempotency_key: only the listing this key created (found even after
                the 24-hour replay window).
        """
        query: Dict[str, str] = {}
        for name, value in (("limit", limit), ("cursor", cursor), ("idempotencyKey", idempotency_key)):
            if value is not None:
                query[name] = str(value)
        return self._list(query)

    def _list(self, query: Dict[str, str], max_retries: Optional[int] = None) -> ListingPage:
        response = self._transport.request(Request("GET", "/v1/listings", query=query), max_retries=max_retries)
        return response.parse(ListingPage.from_json)

    def find_by_idempotency_key(self, idempotency_key: str) -> Optional[Listing]:
        """The listing that ``idempotency_key`` created, or None if it created none:
        how a pending operation is resolved after an ``outcome_unknown`` error."""
        page = self.list(idempotency_key=idempotency_key)
        return page.data[0] if page.data else None


class AccountResource:
    """The account of the API key: ``client.account``."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def retrieve(self) -> Account:
        """The account's credits and standing (free)."""
        return self._transport.request(Request("GET", "/v1/account")).parse(Account.from_json)


class Client:
    """A client of the A2E desktop API (``/v1``).

    Args:
        api_key: the account's API key, sent as ``X-API-Key``; it never appears
            in errors, logs or ``repr``.
        base_url: the API's address, such as ``"https://api.example.com"``.
        max_retries: retries of a failed call that is safe to retry (default 3).
        timeout: seconds each attempt may wait to connect or for data (default 30).
        sleep: waits between attempts (default ``time.sleep``); tests pass a fake.

    Attributes:
        listings: listing requests (create, retrieve, list, find_by_idempotency_key).
        account: the account's credits and standing.
    """

    def __init__(
        self,
        *,
        api_key: str,
        base_url: str,
        max_retries: int = 3,
        timeout: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not api_key or not all("!" <= c <= "~" for c in api_key):
            raise ValueError("api_key must be a non-empty string of printable ASCII without spaces")
        if urllib.parse.urlsplit(base_url).scheme not in ("http", "https"):
            raise ValueError(f"base_url must be an http:// or https:// address, not {base_url!r}")
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        transport = Transport(
            api_key=api_key, base_url=base_url.rstrip("/"), max_retries=max_retries, timeout=timeout, sleep=sleep
        )
        self._transport = transport
        self.listings = Listings(transport)
        self.account = AccountResource(transport)

    def __repr__(self) -> str:
        t = self._transport
        return f"Client(base_url={t.base_url!r}, max_retries={t.max_retries}, timeout={t.timeout})"
