"""The client and its resources: ``client.listings``, ``client.vero_checks`` and ``client.account``."""

from __future__ import annotations

import dataclasses
import json
import time
import urllib.parse
import uuid
from typing import Any, Callable, Dict, Iterator, Optional

from ._errors import A2EError, ServiceUnavailableError
from ._models import Account, Listing, ListingPage, VeroCheck
from ._transport import Request, Transport


def _key(idempotency_key: Optional[str]) -> str:
    """The Idempotency-Key a create sends: the caller's, or a fresh UUID v4.
    A ValueError, before anything is sent, for an empty or non-string one."""
    if idempotency_key is not None and (not isinstance(idempotency_key, str) or idempotency_key == ""):
        raise ValueError("idempotency_key must be a non-empty string; leave it out to have one made")
    return idempotency_key if idempotency_key is not None else str(uuid.uuid4())


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
        key = _key(idempotency_key)
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
        return _first(page)

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

    def list_all(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> Iterator[Listing]:
        """Every listing of the account, newest first, fetching page after page
        (following ``next_cursor``) as the loop goes, as Stripe's
        ``auto_paging_iter`` does (free)::

            for listing in client.listings.list_all(limit=100):
                ...

        ``limit`` is the page size; ``cursor``, if given, is where it starts.
        Each page is one read, retried as any read; an error is raised by the loop.
        """
        while True:
            page = self.list(limit=limit, cursor=cursor)
            yield from page.data
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def _list(self, query: Dict[str, str], max_retries: Optional[int] = None) -> ListingPage:
        response = self._transport.request(Request("GET", "/v1/listings", query=query), max_retries=max_retries)
        return response.parse(ListingPage.from_json)

    def find_by_idempotency_key(self, idempotency_key: str) -> Optional[Listing]:
        """The listing that ``idempotency_key`` created, or None if it created none:
        how a pending operation is resolved after an ``outcome_unknown`` error."""
        return _first(self.list(idempotency_key=idempotency_key))


def _first(page: ListingPage) -> Optional[Listing]:
    """The page's first listing, with the page's rate limit; None on an empty page."""
    if not page.data:
        return None
    return dataclasses.replace(page.data[0], rate_limit=page.rate_limit)


class VeroChecks:
    """Checks of brands against the VeRO protected-brand list: ``client.vero_checks``."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(self, brand: str, *, idempotency_key: Optional[str] = None) -> VeroCheck:
        """Checks ``brand`` (1 to 100 characters once trimmed); charges 1 credit.

        ``idempotency_key`` (default: a fresh UUID v4) is sent on every retry
        with the same body, so the check is charged at most once; the result
        and any error carry it. A check has no read-back: a
        ServiceUnavailableError with ``outcome_unknown`` that outlasts the
        retries is raised; sending the same key again within the 24-hour replay
        window answers the first outcome or runs the check once.

        Raises:
            InsufficientCreditsError, SpendingFrozenError, InvalidRequestError,
            IdempotencyError, AuthenticationError, RateLimitError,
            ServiceUnavailableError, APIError, APIConnectionError.
        """
        key = _key(idempotency_key)
        body = json.dumps({"brand": brand}).encode()
        response = self._transport.request(Request("POST", "/v1/vero-checks", body=body, idempotency_key=key))
        return response.parse(lambda data: VeroCheck.from_json(data, idempotency_key=key))


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
        listings: listing requests (create, retrieve, list, list_all, find_by_idempotency_key).
        vero_checks: checks of brands against the VeRO list (create).
        account: the account's credits and standing.

    The client keeps its connections alive and reuses them; ``close()`` (or a
    ``with`` block) closes the idle ones.
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
        self.vero_checks = VeroChecks(transport)
        self.account = AccountResource(transport)

    def close(self) -> None:
        """Closes the client's idle connections; it can still be used (it opens new ones)."""
        self._transport.pool.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        t = self._transport
        return f"Client(base_url={t.base_url!r}, max_retries={t.max_retries}, timeout={t.timeout})"
