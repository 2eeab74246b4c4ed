"""The case-driven fake API: for one step of sdk/conformance/cases.json it answers
what the case says the real server answers (the step's ``expect``, its
``arrange`` before it) and records what the SDK sent, so the SDK's behaviour on
the cases is tested without bin/api. A behaviour change is one edit to
cases.json; test/sdk runs the same cases against the real server."""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from typing import Any, Dict, List, Optional
from urllib.parse import parse_qs, quote, urlsplit

from tests.fakeapi import FakeAPI, Reply, Seen

CASES_FILE = os.path.join(os.path.dirname(__file__), "..", "..", "conformance", "cases.json")

# The arranged failure's Retry-After: short, so that riding it out is quick.
ARRANGED_RETRY_AFTER = "0.05"
TIMESTAMP = "2026-11-25T16:00:00.123456Z"
TIMESTAMPS = {"createdAt", "resetsAt", "monthlyCreditsExpireAt"}


def cases() -> List[Dict[str, Any]]:
    with open(CASES_FILE) as f:
        return json.load(f)["cases"]


def substitute(value: Any, variables: Dict[str, Any]) -> Any:
    """``${name}`` replaced by variables[name] in every string of value."""
    if isinstance(value, str):
        whole = re.fullmatch(r"\$\{(\w+)\}", value)
        if whole:
            return variables[whole.group(1)]
        return re.sub(r"\$\{(\w+)\}", lambda m: str(variables[m.group(1)]), value)
    if isinstance(value, list):
        return [substitute(v, variables) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, variables) for k, v in value.items()}
    return value


def materialize(value: Any, key: str = "") -> Any:
    """An answer's value for an expectation: "<string>" a fresh string (a timestamp where one is), "<positive>" 1."""
    if value == "<string>":
        return TIMESTAMP if key in TIMESTAMPS else str(uuid.uuid4())
    if value == "<positive>":
        return 1
    if isinstance(value, list):
        return [materialize(v) for v in value]
    if isinstance(value, dict):
        return {k: materialize(v, k) for k, v in value.items()}
    return value


def mismatch(expect: Any, actual: Any, path: str = "") -> Optional[str]:
    """The first way actual does not hold what expect names (sdk/conformance/README.md), else None."""
    if expect is None:
        return None if actual is None else f"{path}: want null, got {actual!r}"
    if expect == "<string>":
        return None if isinstance(actual, str) and actual else f"{path}: want a string, got {actual!r}"
    if expect == "<positive>":
        ok = isinstance(actual, (int, float)) and not isinstance(actual, bool) and actual > 0
        return None if ok else f"{path}: want a positive number, got {actual!r}"
    if isinstance(expect, list):
        if not isinstance(actual, list) or len(actual) != len(expect):
            return f"{path}: want {len(expect)} items, got {actual!r}"
        for i, (e, a) in enumerate(zip(expect, actual)):
            m = mismatch(e, a, f"{path}[{i}]")
            if m:
                return m
        return None
    if isinstance(expect, dict):
        if not isinstance(actual, dict):
            return f"{path}: want an object, got {actual!r}"
        for k, v in expect.items():
            m = mismatch(v, actual.get(k), f"{path}.{k}")
            if m:
                return m
        return None
    if expect != actual or type(expect) is bool and type(actual) is not bool:
        return f"{path}: want {expect!r}, got {actual!r}"
    return None


def at(line: Dict[str, Any], path: str) -> Any:
    value: Any = line
    for k in path.split("."):
        value = value.get(k) if isinstance(value, dict) else None
    return value


def rate_limit_headers() -> Dict[str, str]:
    return {"X-RateLimit-Limit": "20", "X-RateLimit-Remaining": "19", "X-RateLimit-Reset": str(int(time.time()) + 60)}


def error_reply(status: int, code: str, retry_after: Optional[str] = None, request_id: Optional[str] = None,
                message: Optional[str] = None, **extra: Any) -> Reply:
    request_id = request_id or str(uuid.uuid4())
    headers = {"X-Request-ID": request_id}
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    return Reply(status, dict({"code": code, "message": message or f"{code} message", "requestId": request_id}, **extra),
                 headers)


def expected_error_reply(error: Dict[str, Any]) -> Reply:
    """The error answer the step's expected error is the SDK's reading of."""
    e = materialize(error)
    extra: Dict[str, Any] = {}
    if e.get("creditsRemaining") is not None:
        extra["creditsRemaining"] = e["creditsRemaining"]
    extra.update(e.get("spendLimit") or {})
    retry_after = e.get("retryAfter")
    if retry_after is None and e["status"] in (429, 503):
        retry_after = ARRANGED_RETRY_AFTER
    return error_reply(e["status"], e["code"], retry_after, e.get("requestId"), e.get("message"), **extra)


def asin_of(url: Optional[str]) -> str:
    m = re.search(r"/dp/(\w+)", url or "")
    return m.group(1) if m else "B000000000"


def listing_of(fields: Optional[Dict[str, Any]], op: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    fields = fields or {}
    op = op or {}
    return dict({
        "id": str(uuid.uuid4()),
        "asin": asin_of(fields.get("amazonUrl") or op.get("amazonUrl")),
        "amazonUrl": op.get("amazonUrl", "https://www.amazon.com/dp/B000000000"),
        "status": "queued",
        "createdAt": TIMESTAMP,
    }, **materialize(fields))


def request_of(op: Dict[str, Any]) -> Dict[str, Any]:
    """The request each op makes: method, path, the query it must carry and the body."""
    name = op["op"]
    if name == "create":
        return {"method": "POST", "path": "/v1/listings", "body": {"amazonUrl": op["amazonUrl"]}}
    if name == "veroCheck":
        return {"method": "POST", "path": "/v1/vero-checks", "body": {"brand": op["brand"]}}
    if name == "retrieve":
        return {"method": "GET", "path": "/v1/listings/" + quote(op["id"], safe="")}
    if name == "list":
        return {"method": "GET", "path": "/v1/listings",
                "query": {k: op.get(k) for k in ("limit", "cursor", "idempotencyKey")}}
    if name == "listAll":
        return {"method": "GET", "path": "/v1/listings", "query": {"limit": op.get("limit")}}
    if name == "findByIdempotencyKey":
        return {"method": "GET", "path": "/v1/listings", "query": {"idempotencyKey": op["idempotencyKey"]}}
    if name == "account":
        return {"method": "GET", "path": "/v1/account"}
    raise ValueError(f"no request for op {name}")


class Plan:
    """How the fake answers each request one step's op makes (op and expect with the variables substituted)."""

    def __init__(self, step: Dict[str, Any], op: Dict[str, Any], expect: Dict[str, Any], email: str) -> None:
        self.op, self.expect, self.request = op, expect, request_of(op)
        self.arrange = step.get("arrange")
        self.pages: Optional[List[List[Dict[str, Any]]]] = None
        self.final = self._final(email)

    def _final(self, email: str) -> Reply:
        op, expect = self.op, self.expect
        if not expect["ok"]:
            if expect["error"].get("status") is None:
                return Reply(500, {})  # no HTTP answer (noServer): never served
            return expected_error_reply(expect["error"])
        r = expect.get("result", {})
        status = 201 if self.request["method"] == "POST" else 200
        name = op["op"]
        if name in ("create", "retrieve"):
            body: Dict[str, Any] = listing_of(r, op)
        elif name == "veroCheck":
            body = dict({"id": str(uuid.uuid4()), "brand": " ".join(op["brand"].split()), "protected": False,
                         "creditsRemaining": 0}, **materialize(r))
        elif name == "list":
            body = {"data": [listing_of(item) for item in r.get("data", [])],
                    "nextCursor": materialize(r.get("nextCursor"))}
        elif name == "findByIdempotencyKey":
            body = {"data": [] if r is None else [listing_of(r)], "nextCursor": None}
        elif name == "listAll":
            data = [listing_of(item) for item in r["data"]]
            self.pages = [data[i:i + op["limit"]] for i in range(0, len(data), op["limit"])]
            body = {}
        else:
            body = dict({"email": email, "creditsAvailable": 0, "subscriptionStatus": "inactive", "spendingFrozen": False,
                         "creditDebt": 0, "monthlyCredits": 0, "monthlyCreditsExpireAt": None, "purchasedCredits": 0,
                         "otherCredits": 0}, **materialize(r))
        return Reply(status, body, rate_limit_headers())

    def answer(self, n: int, seen: Seen) -> Reply:
        """The answer to the n-th request of the op's method (from 0)."""
        commit = self.arrange in ("commitCut", "commitLost")
        if commit and seen.method == "GET":
            # The read-back by key after the last attempt: the cut COMMIT committed, the lost one did not.
            found: List[Any] = []
            if self.arrange == "commitCut":
                listing = self.final.body if self.expect["ok"] else listing_of({}, self.op)
                key = parse_qs(urlsplit(seen.path).query).get("idempotencyKey", [""])[0]
                found = [dict(listing, idempotencyKey=key)]
            return Reply(200, {"data": found, "nextCursor": None}, rate_limit_headers())
        arranged = {
            "rateLimited": (429, "rate_limited"),
            "databaseDown": (503, "service_unavailable"),
            "commitCut": (503, "commit_outcome_unknown"),
            "commitLost": (503, "commit_outcome_unknown"),
        }.get(self.arrange or "")
        if arranged and n == 0 and self.expect["ok"]:
            return error_reply(*arranged, retry_after=ARRANGED_RETRY_AFTER)
        if self.pages is not None:
            cursor = parse_qs(urlsplit(seen.path).query).get("cursor", ["0"])[0]
            i = int(cursor)
            return Reply(200, {"data": self.pages[i], "nextCursor": str(i + 1) if i + 1 < len(self.pages) else None})
        return self.final


class CaseFake(FakeAPI):
    """A FakeAPI that answers ``plan``; ``answers`` beside ``seen``."""

    def __init__(self) -> None:
        super().__init__()
        self.plan: Optional[Plan] = None
        self.answers: List[Reply] = []

    def start(self, plan: Plan) -> None:
        with self._lock:
            self.plan, self.seen, self.answers = plan, [], []

    def _next(self, seen: Seen) -> Optional[Reply]:
        with self._lock:
            assert self.plan is not None
            n = sum(1 for s in self.seen if s.method == self.plan.request["method"])
            self.seen.append(seen)
            answer = self.plan.answer(n, seen)
            self.answers.append(answer)
            return answer

    def requests_mismatch(self, api_key: str, max_retries: int) -> Optional[str]:
        """What the step's requests broke of the protocol, else None: each is the op's, with the API key; every
        retry of a POST has the first attempt's key and bytes; at most max_retries retries, none after an answer
        a retry cannot fix; a read-back (one GET by the key) only after a commit_outcome_unknown."""
        plan = self.plan
        assert plan is not None
        request, op = plan.request, plan.op
        attempts = [(s, a) for s, a in zip(self.seen, self.answers) if s.method == request["method"]]
        others = [s for s in self.seen if s.method != request["method"]]
        if not attempts or (op["op"] != "listAll" and len(attempts) > max_retries + 1):
            return f"{len(attempts)} attempts of {request['method']}, max_retries {max_retries}"
        for s in self.seen:
            if s.headers["X-API-Key"] != api_key:
                return f"{s.method} {s.path} without the API key"
        first = attempts[0][0]
        for s, _ in attempts:
            url = urlsplit(s.path)
            if url.path != request["path"]:
                return f"{s.method} {s.path}, want {request['path']}"
            query = parse_qs(url.query)
            for k, v in (request.get("query") or {}).items():
                if v is not None and query.get(k) != [str(v)]:
                    return f"{s.path}: want {k}={v}"
                if v is None and op["op"] == "list" and k in query:
                    return f"{s.path}: {k} sent, not given"
            if "body" in request:
                if json.loads(s.body) != request["body"]:
                    return f"{s.path}: body {s.body!r}, want {request['body']!r}"
                key = first.headers["Idempotency-Key"]
                if not key or (op.get("idempotencyKey") is not None and key != op["idempotencyKey"]):
                    return f"Idempotency-Key {key!r}, want {op.get('idempotencyKey') or 'a fresh one'}"
                if s.headers["Idempotency-Key"] != key or s.body != first.body:
                    return "a retry without the first attempt's key and bytes"
        if op["op"] != "listAll" and any(a.status != 429 and a.status < 500 for _, a in attempts[:-1]):
            return "retried after an answer that a retry cannot fix"
        if others:
            last = attempts[-1][1]
            unknown = isinstance(last.body, dict) and last.body.get("code") == "commit_outcome_unknown"
            read_back = len(others) == 1 and unknown and others[0].method == "GET"
            key = first.headers["Idempotency-Key"]
            if not read_back or urlsplit(others[0].path).path != "/v1/listings" or \
                    parse_qs(urlsplit(others[0].path).query).get("idempotencyKey") != [key]:
                return "unexpected " + ", ".join(f"{s.method} {s.path}" for s in others)
        return None
